/**
 * One jest run, three projects:
 * - unit: pure logic, no servers (`*.test.ts`);
 * - integration: real MongoDB-compatible server, Kafka and mail catcher started by tools/testing (`*.int.test.ts`),
 *   and the browser tests, Debian's Chromium driven by Playwright against the whole stack (`*.e2e.test.ts`).
 *   One project, so the servers start once per run: one world of them per jest worker (tools/testing/test-env.ts),
 *   so files run in parallel and a test that stops its broker or database stops only its own worker's.
 */
const transform = {
  '^.+\\.tsx?$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
  // ESM-only packages (sign-in: the OpenID Connect client and the test provider), compiled to CommonJS for
  // jest, which cannot require ES modules on Node 20 (Node itself can, so the services need no step).
  '^.+/node_modules/(openid-client|oauth4webapi|jose|oidc-provider)/.+\\.js$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};
const esmOnlyPackages = ['openid-client', 'oauth4webapi', 'jose', 'oidc-provider'];
const roots = [
  '<rootDir>/proto',
  '<rootDir>/services',
  '<rootDir>/gateway',
  '<rootDir>/tools',
  '<rootDir>/web/src',
  '<rootDir>/web/e2e',
];
const common = {
  rootDir: __dirname,
  roots,
  transform,
  testEnvironment: 'node',
  modulePathIgnorePatterns: ['<rootDir>/.haven/'],
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnlyPackages.join('|')})/)`],
};
const servers = {
  setupFilesAfterEnv: ['<rootDir>/tools/testing/timeouts.ts'],
  globalSetup: '<rootDir>/tools/testing/global-setup.ts',
  globalTeardown: '<rootDir>/tools/testing/global-teardown.ts',
};

module.exports = {
  testSequencer: '<rootDir>/tools/testing/sequencer.js',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: [
        '/node_modules/',
        '\\.int\\.test\\.ts$',
        '\\.e2e\\.test\\.ts$',
        '\\.compose\\.test\\.ts$',
      ],
    },
    { ...common, ...servers, displayName: 'integration', testMatch: ['**/*.int.test.ts', '**/*.e2e.test.ts'] },
    // The compose smoke needs the engine and images the container stage (tools/containers/stage.ts) provides.
    ...(process.env.HAVEN_CONTAINER_STAGE === '1'
      ? [{ ...common, displayName: 'compose', testMatch: ['**/*.compose.test.ts'] }]
      : []),
  ],
};
