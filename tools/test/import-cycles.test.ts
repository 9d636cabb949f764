/**
 * No module imports itself through others: a cycle means two rooms that cannot be read, tested or moved apart
 * (and, at run time, one of them sees the other half-loaded). Types count too. The resolvers' generated types
 * are left out: GraphQL Code Generator imports each service's view types (its "mappers") into the file those
 * views take their field types from, by design.
 */
import path from 'node:path';
import madge from 'madge';

const root = path.resolve(__dirname, '../..');

async function cyclesIn(directories: string[], tsConfig: string): Promise<string[][]> {
  const graph = await madge(
    directories.map((directory) => path.join(root, directory)),
    {
      baseDir: root,
      fileExtensions: ['ts', 'tsx'],
      tsConfig: path.join(root, tsConfig),
      excludeRegExp: [/node_modules/, /\.generated\.ts$/, /\.test\.tsx?$/, /\/dist\//],
    },
  );
  return graph.circular();
}

describe('import cycles', () => {
  it('none among the services, the gateway and the test harness', async () => {
    expect(await cyclesIn(['services', 'gateway/src', 'proto/src', 'tools/testing'], 'tsconfig.json')).toEqual([]);
  }, 120_000);

  it('none in the web app', async () => {
    expect(await cyclesIn(['web/src'], 'web/tsconfig.json')).toEqual([]);
  }, 120_000);
});
