// Prints jest's totals as the plain "N passed, N failed" line that CI reads.
// Usage: node summary.js <jest-results.json>... [--dir <folder of jest-format results>]
// A suite that failed to run (setup error) counts as one failure even when it had no tests; a results
// file that is missing, or a --dir with none (the container stage never got to write one), counts as one.
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const args = process.argv.slice(2);
const files = [];
let missing = 0;
for (let index = 0; index < args.length; index += 1) {
  if (args[index] === '--dir') {
    const dir = args[(index += 1)];
    const found = dir && existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
    if (found.length === 0) missing += 1;
    files.push(...found.map((name) => join(dir, name)));
  } else files.push(args[index]);
}
if (files.length === 0) missing = Math.max(missing, 1);

let passed = 0;
let failed = missing;
for (const file of files) {
  if (!existsSync(file)) {
    failed += 1;
    continue;
  }
  const results = JSON.parse(readFileSync(file, 'utf8'));
  const brokenSuites = results.testResults.filter(
    (suite) => suite.status === 'failed' && suite.assertionResults.length === 0,
  ).length;
  passed += results.numPassedTests;
  failed += results.numFailedTests + brokenSuites;
}
console.log(`${passed} passed, ${failed} failed`);
