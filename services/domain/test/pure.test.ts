/**
 * The domain package holds rules only: the services, the gateway and the web app's first load all import it, so it
 * reads nothing, stores nothing and pulls in no runtime. Each of its modules imports only its neighbours.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const sourceDir = join(__dirname, '..', 'src');

const importsOf = (source: string) =>
  [...source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((match) => match[1]!);

it('imports nothing outside the package: no Node module, npm package or other workspace', () => {
  const outside = readdirSync(sourceDir)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      importsOf(readFileSync(join(sourceDir, file), 'utf8'))
        .filter((specifier) => !specifier.startsWith('./'))
        .map((specifier) => `${file} imports ${specifier}`),
    );
  expect(outside).toEqual([]);
});

it('finds the imports it checks (the check itself can fail)', () => {
  expect(importsOf("import { a } from 'node:fs';\nexport { b } from './c';")).toEqual(['node:fs', './c']);
});
