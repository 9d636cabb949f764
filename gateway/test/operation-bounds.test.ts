/**
 * Haven's own clients stay within the query bounds every GraphQL endpoint holds them to
 * (services/platform/src/limits.ts): each operation the web app sends, as Apollo Client sends it (with
 * the fragments it spreads and its `__typename`s), and each one the REST facade runs.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, print, visit, type DefinitionNode, type FragmentDefinitionNode } from 'graphql';
import { addTypenameToDocument } from '@apollo/client/utilities';
import { queryProblems } from '@haven/platform';
import { logoutOperation, restRoutes } from '../src/rest/routes';

/** The web app's operations from its .graphql files, each with the fragments it needs (as codegen joins them). */
function webOperations(): Array<[string, string]> {
  const webSource = join(__dirname, '..', '..', 'web', 'src');
  const files = readdirSync(webSource, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.graphql'),
  );
  const definitions = files.flatMap((file) => parse(readFileSync(join(webSource, file), 'utf8')).definitions);
  const fragments = new Map(
    definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const withFragments = (definition: DefinitionNode, seen = new Set<DefinitionNode>()): DefinitionNode[] => {
    seen.add(definition);
    visit(definition, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (fragment && !seen.has(fragment)) withFragments(fragment, seen);
      },
    });
    return [...seen];
  };
  return definitions.flatMap((definition): Array<[string, string]> =>
    definition.kind === Kind.OPERATION_DEFINITION
      ? [
          [
            `web ${definition.name?.value ?? 'anonymous'}`,
            print(addTypenameToDocument({ kind: Kind.DOCUMENT, definitions: withFragments(definition) })),
          ],
        ]
      : [],
  );
}

const operations: Array<[string, string]> = [
  ...webOperations(),
  ...restRoutes.map((route): [string, string] => [`REST ${route.method} ${route.path}`, route.operation]),
  ['REST logout', logoutOperation],
];

it('finds the operations of the web app and of the REST facade', () => {
  expect(operations.filter(([name]) => name.startsWith('web ')).length).toBeGreaterThan(30);
  expect(operations.filter(([name]) => name.startsWith('REST ')).length).toBeGreaterThan(30);
});

it.each(operations)('%s is within the bounds', (_name, source) => {
  expect(queryProblems(source)).toEqual([]);
});
