/**
 * The REST facade's routes run the named operations of their area's document (`src/rest/routes/<area>.graphql`),
 * and each reply is typed by what its operation asks (`make codegen`): a reply reading a field the operation does
 * not ask does not compile (`npx tsc`, in `make check`), so it cannot quietly answer `undefined`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { logoutOperation, restRoutes } from '../src/rest/routes';
import { CurrentUserDocument } from '../src/rest/routes/account.generated';
import { restRoute } from '../src/rest/routes/types';

const routesFolder = join(__dirname, '..', 'src', 'rest', 'routes');

const operationsOf = (source: string): OperationDefinitionNode[] =>
  parse(source).definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );

it('every route runs one named operation of its area’s .graphql document', () => {
  const documented = readdirSync(routesFolder)
    .filter((file) => file.endsWith('.graphql'))
    .flatMap((file) => operationsOf(readFileSync(join(routesFolder, file), 'utf8')).map(({ name }) => name?.value));
  const run = [...restRoutes.map((route) => route.operation), logoutOperation].map((operation) => {
    const operations = operationsOf(operation);
    return operations.length === 1 ? operations[0]!.name?.value : `${operations.length} operations`;
  });
  expect(run.filter((name) => !documented.includes(name))).toEqual([]);
  // One route per operation: a second route on the same operation would be a second seam to keep in step.
  expect(new Set(run).size).toBe(run.length);
});

it('a reply reads only what its operation asks', () => {
  const route = restRoute({
    method: 'GET',
    path: '/api/user',
    document: CurrentUserDocument,
    // @ts-expect-error CurrentUser does not ask the user's role, so its data has none to read.
    reply: (data) => ({ role: data.me?.role }),
  });
  expect(route.reply({ me: { id: 'u1' } })).toEqual({ role: undefined });
  expect(route.operation).toContain('query CurrentUser');
});
