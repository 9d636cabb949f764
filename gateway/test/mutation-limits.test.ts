import { join } from 'node:path';
import { Kind, parse, type DocumentNode } from 'graphql';
import { declaredRateLimits, rateLimitClasses, readSubgraphSchema } from '@haven/platform';
import { readSupergraph, subgraphs } from '../src/supergraph';

/** Every root Mutation field of a schema document, by name. */
function mutationsOf(document: DocumentNode): string[] {
  return document.definitions.flatMap((definition) =>
    (definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.OBJECT_TYPE_EXTENSION) &&
    definition.name.value === 'Mutation'
      ? (definition.fields ?? []).map((field) => field.name.value)
      : [],
  );
}

const repoRoot = join(__dirname, '..', '..');

describe('every mutation declares its rate limit', () => {
  it.each(subgraphs.map(({ name, dir }) => [name, dir]))('in the %s subgraph', (_name, dir) => {
    const schema = readSubgraphSchema(join(repoRoot, dir, 'src', 'schema.graphql'));
    const declared = declaredRateLimits(schema);
    const mutations = mutationsOf(schema);
    expect(mutations.length).toBeGreaterThan(0);
    expect(mutations.filter((field) => !declared.has(field))).toEqual([]);
    for (const field of mutations) expect(rateLimitClasses).toContain(declared.get(field)?.class);
  });

  it('in the composed supergraph, where the gateway reads them', () => {
    const supergraph = parse(readSupergraph());
    const declared = declaredRateLimits(supergraph);
    const mutations = mutationsOf(supergraph);
    expect(mutations).toEqual(expect.arrayContaining(['login', 'generateQuote', 'requestPasswordReset']));
    expect(mutations.filter((field) => !declared.has(field))).toEqual([]);
  });

  it('mail-sending mutations name their recipient, or go by the signed-in account', () => {
    const declared = declaredRateLimits(parse(readSupergraph()));
    expect(declared.get('requestPasswordReset')).toEqual({ class: 'MAIL', recipient: 'email' });
    expect(declared.get('resendVerification')).toEqual({ class: 'MAIL', recipient: 'email' });
    expect(declared.get('subscribeToNewsletter')).toEqual({ class: 'MAIL', recipient: 'input.email' });
    expect(declared.get('requestEmailChange')).toEqual({ class: 'MAIL', recipient: 'input.newEmail' });
    expect(declared.get('updateEmailPreferences')).toEqual({ class: 'MAIL' });
    expect(declared.get('generateQuote')).toEqual({ class: 'COSTLY' });
  });
});
