import { ConfigError, loadConfig } from '@haven/platform';
import { billingConfigShape, requirePaymentProviderInProduction, startBillingService } from '../src/main';

const base = {
  JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nnot used here\n-----END PUBLIC KEY-----',
  // Nothing listens here: a start that got past the check would fail on connecting, not with ConfigError.
  MONGO_URL: 'mongodb://127.0.0.1:9',
  SUBGRAPH_SECRET: 'a-subgraph-secret-of-some-length',
  SERVICE_SECRET: 'a-service-secret-of-some-length',
};
const guard = (env: Record<string, string>) => () =>
  requirePaymentProviderInProduction(loadConfig(billingConfigShape, { ...base, ...env }));

describe('billing in production takes real payments or says it is a demo', () => {
  it('refuses the local test-mode provider in production', () => {
    expect(guard({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(guard({ NODE_ENV: 'production' })).toThrow(/STRIPE_SECRET_KEY: required in production/);
    expect(guard({ NODE_ENV: 'production', ALLOW_LOCAL_PAYMENTS: '0' })).toThrow(ConfigError);
  });

  it('starts with Stripe, or with the local provider when ALLOW_LOCAL_PAYMENTS allows it', () => {
    expect(guard({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_x' })).not.toThrow();
    expect(guard({ NODE_ENV: 'production', ALLOW_LOCAL_PAYMENTS: '1' })).not.toThrow();
    expect(guard({ NODE_ENV: 'production', ALLOW_LOCAL_PAYMENTS: 'true' })).not.toThrow();
  });

  it('leaves development and tests on the local provider', () => {
    expect(guard({ NODE_ENV: 'development' })).not.toThrow();
    expect(guard({ NODE_ENV: 'test' })).not.toThrow();
  });

  it('refuses before connecting to anything', async () => {
    await expect(startBillingService({ ...base, NODE_ENV: 'production' })).rejects.toThrow(ConfigError);
  });
});
