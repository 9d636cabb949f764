/**
 * Code, schemas and comments state each rule and why, in the present tense; they never point at the tracker or at
 * documents a reader of the repository cannot open. A test's name may say that it checks the specification's own
 * wording, since that is the requirement it holds the code to.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
/** This file names what it looks for. */
const thisFile = path.relative(root, __filename);

/** Source, schemas, contracts, build and deployment files: everything a reader of the code reads. */
const sourceFile = /\.(ts|tsx|js|cjs|mjs|graphql|proto|java|go|sh|ya?ml|css|html|sql)$|(^|\/)(Makefile|Dockerfile)$/;
const generated = /\.generated\.ts$|_pb\.ts$|(^|\/)supergraph\.graphql$/;

const outsideReferences: Array<[string, RegExp]> = [
  ['an issue number', /\bissues? #?\d+\b/i],
  ['an issue by name', /\b(the|an?|this|that) [a-z-]+( [a-z-]+)? issue(['’]s)?\b/i],
  ['a numbered outside document', /\bdocument 0\d\d\b/i],
  ['an outside design or voice document', /\b(DESIGN|VOICE)\.md\b|\.\.\/shared\//],
  [
    'the specification',
    /\b(the|its|our|this) spec\b|\bspec['’]s\b|\bspecification\b|\(spec\)(?! =>)|\(spec:|\bspec says\b/i,
  ],
];

/** A test's name: the one place that may say it checks the specification's wording. */
const testName = /^\s*(it|test|describe)(\.each\(.*?\))?\(\s*['"`]/;
const testFile = /\.test\.tsx?$/;

function trackedSourceFiles(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => sourceFile.test(file) && !generated.test(file) && file !== thisFile);
}

describe('no work history in the code', () => {
  it('cites no issue, no numbered document, no outside design and no specification in source, schemas or comments', () => {
    const found: string[] = [];
    for (const file of trackedSourceFiles()) {
      const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        for (const [what, pattern] of outsideReferences) {
          if (!pattern.test(line)) continue;
          if (what === 'the specification' && testFile.test(file) && testName.test(line)) continue;
          found.push(`${file}:${index + 1}: ${what}: ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });
});
