/**
 * The 15 check-in dimensions are listed in one module (`checkInDimensionTable`, with their labels and groups);
 * everything else reads them from there. The contracts spell them too, by necessity — the GraphQL schema and the
 * documents that select them, the event contract and what codegen and buf generate from those — and tests may
 * spell a payload out on purpose. Any other source file that names most of them is a second list.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkInDimensions } from '@haven/domain';

const root = path.resolve(__dirname, '../..');
const theOneModule = 'services/domain/src/check-in-rules.ts';

const source = /\.(ts|tsx|js|cjs|mjs)$/;
const contractOrTest = /\.generated\.ts$|_pb\.ts$|\.test\.tsx?$|(^|\/)test\/|(^|\/)e2e\//;

/**
 * Most of the 15 names in one file is a list of them, not a mention. A subset with a meaning of its own (the
 * eight a quote's emotional state keeps, the formulas over them) names fewer.
 */
const listThreshold = 12;

describe('the check-in dimensions', () => {
  it('are spelled out in their one module only', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => source.test(file) && !contractOrTest.test(file));
    const lists = files.filter((file) => {
      const text = readFileSync(path.join(root, file), 'utf8');
      return checkInDimensions.filter((name) => new RegExp(`\\b${name}\\b`).test(text)).length >= listThreshold;
    });
    expect(lists).toEqual([theOneModule]);
  });
});
