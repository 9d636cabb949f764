import type { Test } from '@jest/test-result';
import SpreadBrowserFiles from '../sequencer';

/** A file of the given size, as jest hands it to a sequencer. */
function file(path: string, size: number): Test {
  return { path, context: { hasteFS: { getSize: () => size } } } as unknown as Test;
}

const suite = [
  ...Array.from({ length: 4 }, (_, index) => file(`/web/e2e/page-${index}.e2e.test.ts`, 1_000 + index)),
  ...Array.from({ length: 12 }, (_, index) => file(`/services/s/test/f-${index}.int.test.ts`, 2_000 + index)),
  ...Array.from({ length: 6 }, (_, index) => file(`/services/s/test/u-${index}.test.ts`, 5_000 + index)),
];

const order = (tests: Test[]) => new SpreadBrowserFiles({} as never).sort([...tests]).map((test) => test.path);

describe('the order test files start in', () => {
  it('runs every file once', () => {
    expect([...order(suite)].sort()).toEqual(suite.map((test) => test.path).sort());
  });

  it('spreads the browser files evenly among the integration files, and keeps the unit files for the end', () => {
    const kinds = order(suite).map((path) => (path.includes('.e2e.') ? 'B' : path.includes('.int.') ? 'I' : 'U'));
    expect(kinds.join('')).toBe('IIIBIIIBIIIBIIIBUUUUUU');
  });

  it('starts the largest files of each kind first', () => {
    const paths = order(suite);
    expect(paths[0]).toBe('/services/s/test/f-11.int.test.ts');
    expect(paths[3]).toBe('/web/e2e/page-3.e2e.test.ts');
    expect(paths.at(-1)).toBe('/services/s/test/u-0.test.ts');
  });

  it('starts the file that builds a Go program first, before every other kind', () => {
    const k8sCheck = file('/repo/tools/containers/test/k8s-check.test.ts', 10);
    const paths = order([...suite, k8sCheck]);
    expect(paths[0]).toBe(k8sCheck.path);
    expect(paths.slice(1)).toEqual(order(suite));
  });

  it('gives the same order whatever order jest hands the files in (no timings from earlier runs)', () => {
    expect(order([...suite].reverse())).toEqual(order(suite));
  });

  it('runs the integration files in order when there is no browser file', () => {
    const paths = order(suite.filter((test) => !test.path.includes('.e2e.')));
    expect(paths.slice(0, 2)).toEqual(['/services/s/test/f-11.int.test.ts', '/services/s/test/f-10.int.test.ts']);
  });
});
