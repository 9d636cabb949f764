/**
 * The order jest starts test files in: the same on every machine and every run. Jest's own order puts the
 * files that took longest last time first, so on a machine that has run the suite before, every browser file
 * starts at once, each with six processes and Chromium, and they starve the two cores and each other (three to
 * five times slower, past their waits). Here the browser files are spread evenly among the integration files
 * (about one at a time beside them), after a first share of integration files (each world's first services
 * start while the container stage starts too, the busiest minute of a run), the largest files come first within
 * each kind, and the unit files come last, filling the workers' tails. Timings are never read, so a cold run
 * and a warm one run alike. The exception: a unit file that builds a Go program on a cold machine (minutes, then
 * cached) starts first, so the build overlaps the worlds' start instead of holding up the end of the run.
 */
const Sequencer = require('@jest/test-sequencer').default;

const isBrowser = (test) => test.path.endsWith('.e2e.test.ts');
const isIntegration = (test) => test.path.endsWith('.int.test.ts');
const buildsGoProgram = (test) => test.path.endsWith('/tools/containers/test/k8s-check.test.ts');

class SpreadBrowserFiles extends Sequencer {
  sort(tests) {
    const sizes = new Map();
    const size = (test) => {
      if (!sizes.has(test.path)) sizes.set(test.path, test.context.hasteFS.getSize(test.path) ?? 0);
      return sizes.get(test.path);
    };
    const largestFirst = (files) =>
      [...files].sort((a, b) => size(b) - size(a) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const browser = largestFirst(tests.filter(isBrowser));
    const integration = largestFirst(tests.filter(isIntegration));
    const early = tests.filter(buildsGoProgram);
    const unit = largestFirst(
      tests.filter((test) => !isBrowser(test) && !isIntegration(test) && !buildsGoProgram(test)),
    );

    const ordered = [];
    const gap = browser.length === 0 ? 0 : integration.length / browser.length;
    browser.forEach((file, index) => {
      ordered.push(...integration.slice(Math.round(index * gap), Math.round((index + 1) * gap)), file);
    });
    if (browser.length === 0) ordered.push(...integration);
    return [...early, ...ordered, ...unit];
  }
}

module.exports = SpreadBrowserFiles;
