import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  adminConfigShape,
  baseConfigShape,
  booleanFromEnv,
  ConfigError,
  loadConfig,
  userServiceConfigShape,
} from '../src/config';

const publicKey = '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n';

/** The message of the ConfigError that loading `env` must throw. */
function configErrorOf(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig with the base shape', () => {
  it("defaults each service's port, database and Kafka client id to its own", () => {
    const user = loadConfig(baseConfigShape('user', 4001), { JWT_PUBLIC_KEY: publicKey });
    expect(user).toEqual({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PORT: 4001,
      MONGO_URL: 'mongodb://127.0.0.1:27017',
      MONGO_DB: 'haven_user',
      KAFKA_BROKERS: ['127.0.0.1:9092'],
      KAFKA_CLIENT_ID: 'haven-user',
      JWT_PUBLIC_KEY: publicKey,
      RATE_LIMIT_AUTH_MAX: 10,
      RATE_LIMIT_AUTH_WINDOW_MS: 60_000,
      RATE_LIMIT_MAIL_MAX: 5,
      RATE_LIMIT_MAIL_WINDOW_MS: 3_600_000,
      RATE_LIMIT_COSTLY_MAX: 30,
      RATE_LIMIT_COSTLY_WINDOW_MS: 3_600_000,
      RATE_LIMIT_ORDINARY_MAX: 60,
      RATE_LIMIT_ORDINARY_WINDOW_MS: 60_000,
      RATE_LIMIT_EXPORT_MAX: 1,
      RATE_LIMIT_EXPORT_WINDOW_MS: 300_000,
      KAFKA_RETENTION_MS: 7 * 24 * 60 * 60 * 1000,
      KAFKA_SESSION_TIMEOUT_MS: 30_000,
      KAFKA_TOPIC_PARTITIONS: 3,
      KAFKA_CONSUMER_CONCURRENCY: 1,
      OUTBOX_MAX_PENDING: 50,
    });

    const billing = loadConfig(baseConfigShape('billing', 4003), { JWT_PUBLIC_KEY: publicKey });
    expect(billing.PORT).toBe(4003);
    expect(billing.MONGO_DB).toBe('haven_billing');
    expect(billing.KAFKA_CLIENT_ID).toBe('haven-billing');
  });

  it('bounds the event retention below the consumers’ 14 days of processed ids, and takes an erasure secret', () => {
    const base = { JWT_PUBLIC_KEY: publicKey };
    expect(() => loadConfig(baseConfigShape('user'), { ...base, KAFKA_RETENTION_MS: String(14 * 86_400_000) })).toThrow(
      /KAFKA_RETENTION_MS: must stay a day under/,
    );
    expect(loadConfig(baseConfigShape('user'), { ...base, KAFKA_RETENTION_MS: String(13 * 86_400_000) })).toMatchObject(
      {
        KAFKA_RETENTION_MS: 13 * 86_400_000,
      },
    );
    expect(() => loadConfig(baseConfigShape('user'), { ...base, KAFKA_RETENTION_MS: '1000' })).toThrow(/an hour/);
    expect(() => loadConfig(baseConfigShape('user'), { ...base, ERASURE_HMAC_SECRET: 'short' })).toThrow(
      /ERASURE_HMAC_SECRET/,
    );
    const config = loadConfig(baseConfigShape('user'), {
      ...base,
      KAFKA_RETENTION_MS: String(3 * 86_400_000),
      ERASURE_HMAC_SECRET: 'an erasure secret of length',
    });
    expect(config).toMatchObject({
      KAFKA_RETENTION_MS: 3 * 86_400_000,
      ERASURE_HMAC_SECRET: 'an erasure secret of length',
    });
  });

  it('takes the topics’ partitions and the consumers’ concurrency from the environment, naming a bad one', () => {
    const base = { JWT_PUBLIC_KEY: publicKey };
    expect(
      loadConfig(baseConfigShape('user'), { ...base, KAFKA_TOPIC_PARTITIONS: '6', KAFKA_CONSUMER_CONCURRENCY: '2' }),
    ).toMatchObject({ KAFKA_TOPIC_PARTITIONS: 6, KAFKA_CONSUMER_CONCURRENCY: 2 });
    expect(() => loadConfig(baseConfigShape('user'), { ...base, KAFKA_TOPIC_PARTITIONS: '0' })).toThrow(
      /KAFKA_TOPIC_PARTITIONS/,
    );
    expect(() => loadConfig(baseConfigShape('user'), { ...base, KAFKA_CONSUMER_CONCURRENCY: 'many' })).toThrow(
      /KAFKA_CONSUMER_CONCURRENCY/,
    );
  });

  it('keeps the consumers’ session timeout inside what the broker accepts', () => {
    const base = { JWT_PUBLIC_KEY: publicKey };
    expect(() => loadConfig(baseConfigShape('user'), { ...base, KAFKA_SESSION_TIMEOUT_MS: '1000' })).toThrow(
      /KAFKA_SESSION_TIMEOUT_MS.*6 seconds/,
    );
    expect(loadConfig(baseConfigShape('user'), { ...base, KAFKA_SESSION_TIMEOUT_MS: '10000' })).toMatchObject({
      KAFKA_SESSION_TIMEOUT_MS: 10_000,
    });
  });

  it('reads what is set, turning PORT into a number', () => {
    const config = loadConfig(baseConfigShape('quote', 4002), {
      JWT_PUBLIC_KEY: publicKey,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: '8080',
      MONGO_URL: 'mongodb+srv://db.example.com',
      MONGO_DB: 'custom',
      KAFKA_CLIENT_ID: 'quote-1',
    });
    expect(config).toMatchObject({
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: 8080,
      MONGO_URL: 'mongodb+srv://db.example.com',
      MONGO_DB: 'custom',
      KAFKA_CLIENT_ID: 'quote-1',
    });
  });

  it('treats an empty variable as unset, so FOO= falls back to the default', () => {
    const config = loadConfig(baseConfigShape('user', 4001), {
      JWT_PUBLIC_KEY: publicKey,
      PORT: '',
      MONGO_DB: '',
      KAFKA_BROKERS: '',
      LOG_LEVEL: '',
    });
    expect(config.PORT).toBe(4001);
    expect(config.MONGO_DB).toBe('haven_user');
    expect(config.KAFKA_BROKERS).toEqual(['127.0.0.1:9092']);
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('splits a comma-separated broker list, trimming blanks', () => {
    const config = loadConfig(baseConfigShape('user', 4001), {
      JWT_PUBLIC_KEY: publicKey,
      KAFKA_BROKERS: ' kafka-0:9092 , kafka-1:9092,,kafka-2:9092 ',
    });
    expect(config.KAFKA_BROKERS).toEqual(['kafka-0:9092', 'kafka-1:9092', 'kafka-2:9092']);
  });

  it('refuses a broker list with no broker in it', () => {
    const message = configErrorOf(() =>
      loadConfig(baseConfigShape('user', 4001), { JWT_PUBLIC_KEY: publicKey, KAFKA_BROKERS: ' , ' }),
    );
    expect(message).toMatch(/KAFKA_BROKERS: .*at least one broker/);
  });

  it('lists every bad variable in one error', () => {
    const message = configErrorOf(() =>
      loadConfig(baseConfigShape('user', 4001), { PORT: 'eighty', LOG_LEVEL: 'loud', MONGO_URL: 'postgres://x' }),
    );
    expect(message.startsWith('Invalid configuration:')).toBe(true);
    for (const name of ['PORT', 'LOG_LEVEL', 'MONGO_URL', 'JWT_PUBLIC_KEY'])
      expect(message).toMatch(new RegExp(`^  ${name}: `, 'm'));
    expect(message).not.toMatch(/^ {2}(NODE_ENV|MONGO_DB|KAFKA_BROKERS|KAFKA_CLIENT_ID): /m);
  });

  it('takes the default port from the service catalog', () => {
    expect(loadConfig(baseConfigShape('notification'), { JWT_PUBLIC_KEY: publicKey }).PORT).toBe(4004);
  });

  it('reads ADMIN_EMAIL lower-cased, leaves it unset by default, and names it when it is no address', () => {
    const shape = { ...baseConfigShape('user'), ...adminConfigShape };
    expect(loadConfig(shape, { JWT_PUBLIC_KEY: publicKey }).ADMIN_EMAIL).toBeUndefined();
    expect(loadConfig(shape, { JWT_PUBLIC_KEY: publicKey, ADMIN_EMAIL: 'Admin@Haven.Example' }).ADMIN_EMAIL).toBe(
      'admin@haven.example',
    );
    expect(configErrorOf(() => loadConfig(shape, { JWT_PUBLIC_KEY: publicKey, ADMIN_EMAIL: 'admin' }))).toContain(
      'ADMIN_EMAIL: must be an e-mail address',
    );
  });

  it("points USER_SERVICE_URL at the user service's development port unless set", () => {
    const shape = { ...baseConfigShape('quote'), ...userServiceConfigShape };
    expect(loadConfig(shape, { JWT_PUBLIC_KEY: publicKey }).USER_SERVICE_URL).toBe('http://127.0.0.1:4001/graphql');
  });

  it.each(['-1', '65536', '80.5'])('refuses PORT=%s', (port) => {
    expect(
      configErrorOf(() => loadConfig(baseConfigShape('user', 4001), { JWT_PUBLIC_KEY: publicKey, PORT: port })),
    ).toMatch(/^ {2}PORT: /m);
  });

  it('refuses a JWT_PUBLIC_KEY that is not a PEM public key, without printing the value', () => {
    const privateKey = '-----BEGIN PRIVATE KEY-----\nTOP-SECRET-MATERIAL\n-----END PRIVATE KEY-----\n';
    const message = configErrorOf(() => loadConfig(baseConfigShape('user', 4001), { JWT_PUBLIC_KEY: privateKey }));
    expect(message).toContain('JWT_PUBLIC_KEY: must be a PEM public key');
    expect(message).not.toContain('TOP-SECRET-MATERIAL');
  });

  describe('secrets from files (*_FILE)', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'haven-config-'));
    });
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it('reads JWT_PUBLIC_KEY from the file JWT_PUBLIC_KEY_FILE names', () => {
      const file = join(dir, 'jwt.pub');
      writeFileSync(file, publicKey);
      expect(loadConfig(baseConfigShape('user', 4001), { JWT_PUBLIC_KEY_FILE: file }).JWT_PUBLIC_KEY).toBe(publicKey);
    });

    it('reads the file when the variable itself is empty', () => {
      const file = join(dir, 'jwt.pub');
      writeFileSync(file, publicKey);
      expect(
        loadConfig(baseConfigShape('user', 4001), { JWT_PUBLIC_KEY: '', JWT_PUBLIC_KEY_FILE: file }).JWT_PUBLIC_KEY,
      ).toBe(publicKey);
    });

    it('prefers the variable when both are set', () => {
      const file = join(dir, 'jwt.pub');
      writeFileSync(file, '-----BEGIN PUBLIC KEY-----\nFROM-FILE\n-----END PUBLIC KEY-----\n');
      expect(
        loadConfig(baseConfigShape('user', 4001), { JWT_PUBLIC_KEY: publicKey, JWT_PUBLIC_KEY_FILE: file })
          .JWT_PUBLIC_KEY,
      ).toBe(publicKey);
    });

    it('reads the other secrets (JWT_PRIVATE_KEY, SMTP_PASS) the same way', () => {
      writeFileSync(join(dir, 'private'), 'private-pem');
      writeFileSync(join(dir, 'smtp'), 'hunter2');
      const shape = { JWT_PRIVATE_KEY: z.string(), SMTP_PASS: z.string() };
      expect(
        loadConfig(shape, { JWT_PRIVATE_KEY_FILE: join(dir, 'private'), SMTP_PASS_FILE: join(dir, 'smtp') }),
      ).toEqual({
        JWT_PRIVATE_KEY: 'private-pem',
        SMTP_PASS: 'hunter2',
      });
    });

    it("reads MONGO_URL, which carries its user's password, from a file, without the line end after it", () => {
      const file = join(dir, 'mongo-url');
      writeFileSync(file, 'mongodb://quote:s3cret@mongo:27017/haven_quote\n');
      expect(
        loadConfig(baseConfigShape('quote', 4002), { JWT_PUBLIC_KEY: publicKey, MONGO_URL_FILE: file }).MONGO_URL,
      ).toBe('mongodb://quote:s3cret@mongo:27017/haven_quote');
    });

    it('names the variable and the file when the file cannot be read', () => {
      const missing = join(dir, 'missing.pem');
      const message = configErrorOf(() => loadConfig(baseConfigShape('user', 4001), { JWT_PUBLIC_KEY_FILE: missing }));
      expect(message).toContain(`JWT_PUBLIC_KEY_FILE: cannot read ${missing}`);
    });
  });
});

describe('booleanFromEnv', () => {
  const shape = { FLAG: booleanFromEnv.default(false) };

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['no', false],
  ])('reads %p as %p', (value, expected) => {
    expect(loadConfig(shape, { FLAG: value }).FLAG).toBe(expected);
  });

  it('uses the default when unset or empty', () => {
    expect(loadConfig(shape, {}).FLAG).toBe(false);
    expect(loadConfig(shape, { FLAG: '' }).FLAG).toBe(false);
    expect(loadConfig({ FLAG: booleanFromEnv.default(true) }, { FLAG: '' }).FLAG).toBe(true);
  });

  it('refuses anything else instead of guessing', () => {
    expect(configErrorOf(() => loadConfig(shape, { FLAG: 'maybe' }))).toMatch(/^ {2}FLAG: /m);
  });
});
