/**
 * The domain package holds rules only: the services, the gateway and the web app's first load all import it, so it
 * reads nothing, stores nothing and pulls in no runtime. Each of its modules imports only its neighbours.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { moduleSpecifiers } from '../../../tools/testing/module-specifiers';

const sourceDir = join(__dirname, '..', 'src');

it('imports nothing outside the package: no Node module, npm package or other workspace', () => {
  const outside = readdirSync(sourceDir)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      moduleSpecifiers(readFileSync(join(sourceDir, file), 'utf8'))
        .filter((specifier) => !specifier.startsWith('./'))
        .map((specifier) => `${file} imports ${specifier}`),
    );
  expect(outside).toEqual([]);
});

it('finds the imports it checks (the check itself can fail)', () => {
  const source = "import { a } from 'node:fs';\nexport { b } from './c';\nconst d = await import('e');\nimport 'f';";
  expect(moduleSpecifiers(source).sort()).toEqual(['./c', 'e', 'f', 'node:fs']);
});
