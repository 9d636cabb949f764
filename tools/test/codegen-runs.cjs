/**
 * Runs codegen.ts as `make codegen` does (the same config, GraphQL Code Generator's own generate, the files
 * written) once for each pair of arguments `<schemas> <out>`: the schemas read from the folder <schemas>, laid out
 * like the repository (`.` for its own), and the files written under <out> (HAVEN_CODEGEN_SCHEMAS and
 * HAVEN_CODEGEN_OUT). Several runs in one process because loading the generator costs more than a run
 * (tools/test/codegen.test.ts). Plain JavaScript, so Node runs it without a TypeScript loader of its own.
 */
'use strict';

const path = require('node:path');
const { generate } = require('@graphql-codegen/cli');

const root = path.resolve(__dirname, '../..');
// The loader the command line reads codegen.ts with. codegen.ts reads its environment as it loads, so each run
// loads it afresh (no module cache), as each command does.
const { createJiti } = require(require.resolve('jiti', { paths: [require.resolve('@graphql-codegen/cli')] }));
const jiti = createJiti(__filename, { moduleCache: false });

async function main(args) {
  // codegen.ts names its files from the repository root, where `make codegen` runs it.
  process.chdir(root);
  if (args.length === 0 || args.length % 2 !== 0) {
    throw new Error('usage: node tools/test/codegen-runs.cjs <schemas> <out> [<schemas> <out> …]');
  }
  for (let index = 0; index < args.length; index += 2) {
    process.env.HAVEN_CODEGEN_SCHEMAS = args[index];
    process.env.HAVEN_CODEGEN_OUT = args[index + 1];
    const config = await jiti.import(path.join(root, 'codegen.ts'), { default: true });
    await generate({ ...config, cwd: root }, true);
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
