// The report `make test` prints before its summary line: each stage's duration, the ten slowest test
// files (with when each started, to see what ran beside what), every failed test by file and name (the
// last screen of a long run's output is often all a reader has), and a warning when the run went over the
// suite's time budget. For people only: it never fails a run. Usage: node report.js <stage-times.tsv> <jest-results.json>... [--budget <seconds>]
const { existsSync, readFileSync } = require('node:fs');
const { basename, relative } = require('node:path');
const { stripVTControlCharacters } = require('node:util');

const args = process.argv.slice(2);
let budgetSeconds = Number(process.env.HAVEN_TEST_BUDGET_S || 900);
const files = [];
for (let index = 0; index < args.length; index += 1) {
  if (args[index] === '--budget') budgetSeconds = Number(args[(index += 1)]);
  else files.push(args[index]);
}
const [stageFile, ...resultFiles] = files;

const minutes = (seconds) => `${Math.floor(seconds / 60)} min ${String(Math.round(seconds % 60)).padStart(2, '0')} s`;

const stages = existsSync(stageFile)
  ? readFileSync(stageFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name, start, end, status] = line.split('\t');
        return { name, start: Number(start), end: Number(end), seconds: Number(end) - Number(start), status };
      })
  : [];
// Wall time: stages that ran side by side count once.
const total = stages.length === 0 ? 0 : Math.max(...stages.map((s) => s.end)) - Math.min(...stages.map((s) => s.start));
const offset = (stage) => (stages.length === 0 ? 0 : stage.start - Math.min(...stages.map((s) => s.start)));
const width = Math.max(9, ...stages.map((stage) => stage.name.length));
console.log('\nmake test, stage by stage:');
for (const stage of stages) {
  const from = `started at ${minutes(offset(stage))}`;
  const failed = stage.status === '0' ? '' : '  (failed)';
  console.log(`  ${stage.name.padEnd(width)}  ${minutes(stage.seconds).padStart(11)}   ${from}${failed}`);
}
console.log(`  ${'wall time'.padEnd(width)}  ${minutes(total).padStart(11)}`);

const runs = resultFiles
  .filter((file) => existsSync(file))
  .map((file) => ({ file, results: JSON.parse(readFileSync(file, 'utf8')) }));
const firstStart = Math.min(...stages.map((stage) => stage.start * 1000), ...runs.map((run) => run.results.startTime));
const testFiles = runs.flatMap(({ file, results }) =>
  (results.testResults ?? []).map((suite) => ({
    // The container stage runs some files again on testcontainers: say which run a line is.
    name: relative(process.cwd(), suite.name) + (file === resultFiles[0] ? '' : ` (${basename(file, '.json')})`),
    suite,
  })),
);
const slowest = testFiles
  .filter(({ suite }) => suite.startTime && suite.endTime)
  .map(({ name, suite }) => ({
    name,
    seconds: (suite.endTime - suite.startTime) / 1000,
    from: (suite.startTime - firstStart) / 1000,
  }))
  .sort((a, b) => b.seconds - a.seconds)
  .slice(0, 10);
if (slowest.length > 0) {
  console.log('\nthe ten slowest test files:');
  for (const { seconds, from, name } of slowest) {
    console.log(`  ${seconds.toFixed(1).padStart(6)} s  from ${minutes(from).padStart(11)}  ${name}`);
  }
}
// The start of why a test failed, indented under its name: a run whose middle is cut off still says it.
function firstLines(messages = []) {
  const lines = stripVTControlCharacters(messages.join('\n'))
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(0, 12)
    .map((line) => `\n      ${line.length > 240 ? `${line.slice(0, 240)}…` : line}`);
  return lines.join('');
}
const failures = testFiles.flatMap(({ name, suite }) => [
  ...(suite.status === 'failed' && (suite.assertionResults ?? []).length === 0
    ? [`${name}: the file did not run`]
    : []),
  ...(suite.assertionResults ?? [])
    .filter((test) => test.status === 'failed')
    .map((test) => `${name}: ${test.fullName}${firstLines(test.failureMessages)}`),
]);
if (failures.length > 0) {
  console.log(`\nfailed (${failures.length}):`);
  for (const failure of failures) console.log(`  ${failure}`);
}
if (budgetSeconds > 0 && total > budgetSeconds) {
  console.log(
    `\nWARNING: make test took ${minutes(total)}, over the suite's budget of ${minutes(budgetSeconds)} ` +
      '(README, "Testing"): find what grew in the tables above.',
  );
}
console.log('');
