import { restRoutes } from '../../../gateway/src/rest/routes';
import { publicMutations, restOperations } from '../operations';

describe('publicMutations', () => {
  it('lists the public supergraph’s mutations with their arguments, not the services’ own', () => {
    const mutations = Object.fromEntries(publicMutations().map((mutation) => [mutation.name, mutation]));
    expect(Object.keys(mutations)).toEqual(expect.arrayContaining(['register', 'generateQuote', 'logout']));
    expect(Object.keys(mutations)).not.toContain('advanceBillingClock');
    expect(Object.keys(mutations)).not.toContain('closePaymentsForErasure');
    expect(mutations.setQuoteFavorite!.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual([
      'id: ID!',
      'isFavorite: Boolean!',
    ]);
    expect(mutations.logout!.returnsObject).toBe(false);
  });
});

describe('restOperations', () => {
  const byRoute = Object.fromEntries(
    restOperations().map((operation) => [
      `${operation.route.method} ${operation.route.path}`,
      operation.inputs.map((input) => `${input.source}.${input.name} → ${input.variablePath.join('.')}`),
    ]),
  );

  it('covers every route of the table', () => {
    expect(Object.keys(byRoute)).toHaveLength(restRoutes.length);
  });

  it('finds where each route reads its inputs and which variable each becomes', () => {
    expect(byRoute['POST /api/auth/register']).toEqual(
      expect.arrayContaining(['body.email → input.email', 'body.password → input.password']),
    );
    expect(byRoute['PATCH /api/quotes/:id/favorite']).toEqual(['params.id → id', 'body.isFavorite → isFavorite']);
    expect(byRoute['GET /api/quotes/recent']).toEqual(['query.limit → limit', 'query.date → date']);
    expect(byRoute['GET /api/auth/verify-email']).toEqual(['query.token → token']);
    expect(byRoute['POST /api/subscription/cancel']).toEqual([]);
  });
});
