import { ConfigError, requireServiceSecretInProduction, requireSubgraphSecretInProduction, sameSecret } from '../src';

describe('the subgraph secret', () => {
  it('is compared whole: the same secret passes; a prefix, another value or none does not', () => {
    const secret = 'a-long-enough-shared-secret';
    expect(sameSecret(secret, secret)).toBe(true);
    expect(sameSecret(secret.slice(0, -1), secret)).toBe(false);
    expect(sameSecret(`${secret}x`, secret)).toBe(false);
    expect(sameSecret('', secret)).toBe(false);
    expect(sameSecret(undefined, secret)).toBe(false);
  });

  it('is required in production, where a subgraph would otherwise answer anyone', () => {
    expect(() => requireSubgraphSecretInProduction({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => requireSubgraphSecretInProduction({ NODE_ENV: 'production' })).toThrow(/SUBGRAPH_SECRET: required/);
    expect(() =>
      requireSubgraphSecretInProduction({ NODE_ENV: 'production', SUBGRAPH_SECRET: 'x'.repeat(16) }),
    ).not.toThrow();
    expect(() => requireSubgraphSecretInProduction({ NODE_ENV: 'development' })).not.toThrow();
  });

  it('has a counterpart for the services alone, also required in production (the deletion saga needs it)', () => {
    expect(() => requireServiceSecretInProduction({ NODE_ENV: 'production' })).toThrow(/SERVICE_SECRET: required/);
    expect(() =>
      requireServiceSecretInProduction({ NODE_ENV: 'production', SERVICE_SECRET: 'x'.repeat(16) }),
    ).not.toThrow();
    expect(() => requireServiceSecretInProduction({ NODE_ENV: 'test' })).not.toThrow();
  });
});
