import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, isObjectType, parse, validate, type GraphQLSchema } from 'graphql';
import { restRoutes, logoutOperation } from '../src/rest/routes';
import { composeSupergraph, readSupergraph, subgraphs } from '../src/supergraph';

jest.setTimeout(30_000);

let checkedIn: string;
let schema: GraphQLSchema;

beforeAll(() => {
  checkedIn = readSupergraph();
  schema = buildSchema(checkedIn);
});

const fieldsOf = (typeName: string): string[] => {
  const type = schema.getType(typeName);
  if (!isObjectType(type)) throw new Error(`${typeName} is not an object type of the supergraph`);
  return Object.keys(type.getFields());
};

describe('supergraph', () => {
  it('the checked-in gateway/supergraph.graphql is what the subgraph schemas compose to', () => {
    const composed = composeSupergraph();
    if (composed !== checkedIn) {
      throw new Error(
        'gateway/supergraph.graphql is out of date with services/*/src/schema.graphql: run `make supergraph` and commit it.',
      );
    }
  });

  it('joins all five subgraphs', () => {
    for (const { name } of subgraphs) expect(checkedIn).toContain(`@join__graph(name: "${name}"`);
  });

  it('has the root fields the web app and the REST facade use', () => {
    expect(fieldsOf('Query')).toEqual(expect.arrayContaining(['me', 'gdprConfig']));
    expect(fieldsOf('Mutation')).toEqual(expect.arrayContaining(['register', 'login', 'logout']));
  });

  it("extends User with each service's part of it", () => {
    expect(fieldsOf('User')).toEqual(
      expect.arrayContaining([
        'id',
        'email',
        'firstName',
        'lastName',
        'emailVerified',
        'createdAt',
        'subscriptionStatus',
        'stats',
        'emailPreferences',
      ]),
    );
    expect(fieldsOf('EmailPreferences')).toEqual(
      expect.arrayContaining(['marketingEmails', 'productUpdates', 'securityNotifications', 'newsletter']),
    );
    expect(fieldsOf('GdprConfig')).toEqual(expect.arrayContaining(['cookieBannerEnabled']));
  });

  it('accepts every operation of the REST facade', () => {
    for (const operation of [...restRoutes.map((route) => route.operation), logoutOperation]) {
      expect({ operation, errors: validate(schema, parse(operation)).map((error) => error.message) }).toEqual({
        operation,
        errors: [],
      });
    }
  });

  it('accepts every operation of the web app (web/src/**/*.graphql)', () => {
    const webSource = join(__dirname, '..', '..', 'web', 'src');
    const files = readdirSync(webSource, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.graphql'),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const operation = readFileSync(join(webSource, file), 'utf8');
      expect({ file, errors: validate(schema, parse(operation)).map((error) => error.message) }).toEqual({
        file,
        errors: [],
      });
    }
  });
});
