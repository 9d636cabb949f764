/**
 * Each service's test helpers are one package, `services/<name>/test/support`, and other files reach them only
 * through its index: a test elsewhere that imports a service's test file by path ties itself to how that folder
 * happens to be laid out, and a helper lying loose among the tests is one nobody finds.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { moduleSpecifiers } from '../testing/module-specifiers';

const root = path.resolve(__dirname, '../..');
const scanned = ['gateway', 'web/e2e', 'tools', 'services'];
const source = /\.(ts|tsx|js|cjs|mjs)$/;
const skippedFolders = new Set(['node_modules', 'dist', '.haven']);
/** This file, whose samples below spell the imports it refuses. */
const self = path.relative(root, __filename).split(path.sep).join('/');

/** The repository path a specifier names, without extension or `/index`; undefined for an outside package. */
function target(importer: string, specifier: string): string | undefined {
  let resolved: string;
  if (specifier.startsWith('.')) resolved = path.posix.join(path.posix.dirname(importer), specifier);
  else {
    const workspace = /^@haven\/([^/]+)(\/.*)?$/.exec(specifier);
    if (!workspace) return undefined;
    resolved = `services/${workspace[1]}${workspace[2] ?? ''}`;
  }
  return resolved.replace(/\.(ts|tsx|js|cjs|mjs)$/, '').replace(/\/index$/, '');
}

/** What is wrong with the imports of one file (repository path, text): one line per import that reaches past a support index. */
export function testSupportViolations(importer: string, text: string): string[] {
  return moduleSpecifiers(text).flatMap((specifier) => {
    const to = target(importer, specifier);
    const inTests = to && /^services\/([^/]+)\/test(\/|$)/.exec(to);
    if (!to || !inTests) return [];
    const tests = `services/${inTests[1]}/test`;
    const support = `${tests}/support`;
    if (to === support) return [];
    // Inside the support package its files import each other; the service's own tests go through the index.
    if (to.startsWith(`${support}/`) && importer.startsWith(`${support}/`)) return [];
    if (to.startsWith(`${support}/`) || !importer.startsWith(`${tests}/`)) {
      return [`${importer} imports '${specifier}': import '${support}' instead`];
    }
    return [];
  });
}

function filesUnder(directory: string): string[] {
  const absolute = path.join(root, directory);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(directory, entry.name);
    if (entry.isDirectory()) return skippedFolders.has(entry.name) ? [] : filesUnder(file);
    return entry.isFile() && source.test(file) ? [file] : [];
  });
}

describe("a service's test support", () => {
  it('is the only module of a service’s test folder that other files import', () => {
    const violations = scanned
      .flatMap(filesUnder)
      .filter((file) => file !== self)
      .flatMap((file) => testSupportViolations(file, readFileSync(path.join(root, file), 'utf8')));
    expect(violations).toEqual([]);
  });

  it('holds every helper module of the service’s test folder: the rest are tests (or data)', () => {
    const loose = filesUnder('services').filter(
      (file) => /^services\/[^/]+\/test\//.test(file) && !/\.test\.tsx?$/.test(file) && !/\/test\/support\//.test(file),
    );
    expect(loose).toEqual([]);
  });

  it('fails on a test elsewhere that imports a service’s test file by path', () => {
    expect(
      testSupportViolations(
        'web/e2e/sample.e2e.test.ts',
        [
          "import { advanceBillingClock } from '../../services/billing/test/clock';",
          "import type { TestHaven } from '../../tools/testing/haven';",
          "const records = await import('../../services/billing/test/records');",
          "import { seedSubscribers } from '../../services/notification/test/support/subscribers';",
          "import { harmlessNotes } from '../../services/quote/test/support';",
          "import { entitlementCopy } from '../../services/billing/test/support/index';",
        ].join('\n'),
      ),
    ).toEqual([
      "web/e2e/sample.e2e.test.ts imports '../../services/billing/test/clock': import 'services/billing/test/support' instead",
      "web/e2e/sample.e2e.test.ts imports '../../services/notification/test/support/subscribers': import 'services/notification/test/support' instead",
      "web/e2e/sample.e2e.test.ts imports '../../services/billing/test/records': import 'services/billing/test/support' instead",
    ]);
  });

  it('lets a service’s tests import one another’s files but its support only through the index', () => {
    const test = 'services/notification/test/delivery.int.test.ts';
    expect(testSupportViolations(test, "import { testMailer } from './support';")).toEqual([]);
    expect(testSupportViolations(test, "import { advanceBillingClock } from '../../billing/test/support';")).toEqual(
      [],
    );
    expect(testSupportViolations(test, "import { testMailer } from './support/test-mailer';")).toHaveLength(1);
    expect(testSupportViolations(test, "import { advanceBillingClock } from '../../billing/test/clock';")).toHaveLength(
      1,
    );
    expect(
      testSupportViolations(
        'services/notification/test/support/replica.ts',
        "import { testMailer } from './test-mailer';",
      ),
    ).toEqual([]);
    expect(
      testSupportViolations('gateway/src/x.ts', "import { eventTypes } from '@haven/billing/test/records';"),
    ).toHaveLength(1);
  });
});
