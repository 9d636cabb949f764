import { hkdfSync, randomBytes } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { z } from 'zod';
import type { CallerSecrets } from './auth';
import { booleanFromEnv, ConfigError } from './config';
import { openBytes, sealBytes, sealingKeyBytes } from './sealing';
import { PersonDataKeyDocument } from './operations/user.generated';
import { askSubgraph } from './subgraph-client';

/**
 * A key per person (envelope encryption). Each person's journal content — check-in notes, messages, the safety
 * plan — is sealed under their own random data key. The data key is stored only wrapped (sealed) by a master key,
 * with the user service, which alone holds the master keys; other services ask it for a person's key over the
 * service credential and keep it in memory briefly. Erasure deletes the wrapped key: every copy of the content
 * anywhere (a backup, a cache, a log) is unreadable from then on.
 */

const wrappedPrefix = 'hk1.';
const sealedPrefix = 'hp1.';
const masterKeyIdPattern = /^[A-Za-z0-9_-]{1,32}$/;

/** The master keys: the first wraps every new key; each one unwraps (the older ones only until rotation ends). */
export interface MasterKeys {
  current: { id: string; key: Buffer };
  byId: ReadonlyMap<string, Buffer>;
}

function parseMasterKeys(value: string): MasterKeys | string {
  const entries = value.split(',').map((entry) => entry.trim());
  const byId = new Map<string, Buffer>();
  for (const entry of entries) {
    const separator = entry.indexOf(':');
    const id = entry.slice(0, separator);
    const key = Buffer.from(entry.slice(separator + 1), 'base64');
    if (separator < 1 || !masterKeyIdPattern.test(id))
      return 'each entry must be id:key, the id letters, digits, - or _';
    if (key.length !== sealingKeyBytes) return `the key of ${id} must be ${sealingKeyBytes} bytes in base64`;
    if (byId.has(id)) return `${id} is listed twice`;
    byId.set(id, key);
  }
  const [firstId] = byId.keys();
  return { current: { id: firstId!, key: byId.get(firstId!)! }, byId };
}

/** `PERSON_MASTER_KEYS`: `id:base64-key` pairs, comma-separated, the current one first (the user service's alone). */
export const personKeysConfigShape = {
  PERSON_MASTER_KEYS: z
    .string()
    .trim()
    .superRefine((value, context) => {
      const parsed = parseMasterKeys(value);
      if (typeof parsed === 'string') context.addIssue({ code: 'custom', message: parsed });
    })
    .optional()
    .meta({
      description:
        'the master keys that wrap each person\'s data key: `id:base64-32-byte-key` pairs, comma-separated, the current one first. To rotate, put a new one first and keep the old after it; the service re-wraps every key at start (docs/operations.md, "Rotating the master key"), then remove the old one',
      unset: '— (required in production; development derives one)',
    }),
};

/**
 * `PERSON_DATA_SEALING`: off, a service stores each person's content as it is (plainKeyring), so the bench can
 * measure what sealing costs; production refuses to start with it off (personKeyringFor).
 */
export const personDataSealingConfigShape = {
  PERSON_DATA_SEALING: booleanFromEnv
    .default(true)
    .describe(
      "`false`: notes and messages stored as they are, unsealed (the bench's comparison); refused in production",
    ),
};

const developmentMasterKey = () =>
  Buffer.from(hkdfSync('sha256', 'haven-development-person-keys', 'haven', 'haven:person-master-key:v1', 32));

/** The configured master keys; in development and tests without any, one derived from a fixed development secret. */
export function masterKeysFrom(config: { PERSON_MASTER_KEYS?: string; NODE_ENV: string }): MasterKeys {
  if (config.PERSON_MASTER_KEYS) {
    const parsed = parseMasterKeys(config.PERSON_MASTER_KEYS);
    if (typeof parsed === 'string') throw new ConfigError(`Invalid configuration:\n  PERSON_MASTER_KEYS: ${parsed}`);
    return parsed;
  }
  if (config.NODE_ENV === 'production')
    throw new ConfigError('Invalid configuration:\n  PERSON_MASTER_KEYS: required in production');
  const key = developmentMasterKey();
  return { current: { id: 'development', key }, byId: new Map([['development', key]]) };
}

/** A person's data key as it is stored: sealed by a master key, bound to the person's id. */
export interface WrappedPersonKey {
  masterKeyId: string;
  wrappedKey: string;
}

export function newPersonKey(masters: MasterKeys, userId: string): WrappedPersonKey {
  return wrapPersonKey(masters, userId, randomBytes(sealingKeyBytes));
}

export function wrapPersonKey(masters: MasterKeys, userId: string, dataKey: Buffer): WrappedPersonKey {
  return {
    masterKeyId: masters.current.id,
    wrappedKey: sealBytes(masters.current.key, wrappedPrefix, dataKey, userId),
  };
}

/** The data key; null when its master key is no longer configured, or the record was altered or moved. */
export function unwrapPersonKey(masters: MasterKeys, userId: string, stored: WrappedPersonKey): Buffer | null {
  const master = masters.byId.get(stored.masterKeyId);
  return master ? openBytes(master, wrappedPrefix, stored.wrappedKey, userId) : null;
}

/** Whether a stored value is sealed for a person (values stored before encryption are plain text). */
export const isSealedForPerson = (stored: string): boolean => stored.startsWith(sealedPrefix);

export function sealForPerson(dataKey: Buffer, userId: string, text: string): string {
  return sealBytes(dataKey, sealedPrefix, Buffer.from(text, 'utf8'), userId);
}

/** The text a stored value holds; null when it does not open with this key. */
export function openForPerson(dataKey: Buffer, userId: string, stored: string): string | null {
  if (!isSealedForPerson(stored)) return stored;
  return openBytes(dataKey, sealedPrefix, stored, userId)?.toString('utf8') ?? null;
}

/** How a service reaches a person's data key: null when the person has none any more (erased). */
export type PersonKeySource = (userId: string) => Promise<Buffer | null>;

/** Seals and opens a person's content with their key, which it keeps in memory for `ttlMs`. */
export interface PersonKeyring {
  /** The text sealed under the person's key; fails when the person has no key (an account being erased). */
  seal(userId: string, text: string): Promise<string>;
  /** The text sealed under the person's key; null when the person has no key (erased). */
  trySeal(userId: string, text: string): Promise<string | null>;
  /**
   * The stored value's text: sealed ones opened, plain ones (stored before encryption) as they are; null when
   * nothing is stored, or the person's key is gone.
   */
  open(userId: string, stored: string | null | undefined): Promise<string | null>;
  /** Drops the person's key from memory (their account is erased). */
  forget(userId: string): void;
}

export function personKeyring(
  source: PersonKeySource,
  options: { ttlMs?: number; maxKeys?: number } = {},
): PersonKeyring {
  const ttlMs = options.ttlMs ?? 60_000;
  const maxKeys = options.maxKeys ?? 10_000;
  const cache = new Map<string, { key: Promise<Buffer | null>; expiresAt: number }>();

  function keyOf(userId: string): Promise<Buffer | null> {
    const now = Date.now();
    const cached = cache.get(userId);
    if (cached && cached.expiresAt > now) return cached.key;
    cache.delete(userId);
    if (cache.size >= maxKeys) cache.delete(cache.keys().next().value!);
    const key = source(userId);
    cache.set(userId, { key, expiresAt: now + ttlMs });
    // A failed ask, or a person without a key, is asked again next time.
    key.then(
      (found) => found ?? cache.delete(userId),
      () => cache.delete(userId),
    );
    return key;
  }

  async function trySeal(userId: string, text: string): Promise<string | null> {
    const key = await keyOf(userId);
    return key ? sealForPerson(key, userId, text) : null;
  }

  return {
    trySeal,
    async seal(userId, text) {
      const sealed = await trySeal(userId, text);
      if (sealed === null) {
        throw new GraphQLError('This account is being deleted; nothing more can be saved to it.', {
          extensions: { code: 'FORBIDDEN' },
        });
      }
      return sealed;
    },
    async open(userId, stored) {
      if (stored == null || !isSealedForPerson(stored)) return stored ?? null;
      const key = await keyOf(userId);
      return key ? openForPerson(key, userId, stored) : null;
    },
    forget: (userId) => void cache.delete(userId),
  };
}

/** A keyring without keys: text is stored as it is, and a stored value (sealed or not) read back as it is. */
export function plainKeyring(): PersonKeyring {
  return {
    seal: async (_userId, text) => text,
    trySeal: async (_userId, text) => text,
    open: async (_userId, stored) => stored ?? null,
    forget: () => undefined,
  };
}

/** The keyring `PERSON_DATA_SEALING` asks for: sealing with each person's key, or (never in production) none. */
export function personKeyringFor(
  config: { PERSON_DATA_SEALING: boolean; NODE_ENV: string },
  source: PersonKeySource,
): PersonKeyring {
  if (config.PERSON_DATA_SEALING) return personKeyring(source);
  if (config.NODE_ENV === 'production') {
    throw new ConfigError('Invalid configuration:\n  PERSON_DATA_SEALING: cannot be off in production');
  }
  return plainKeyring();
}

/** A person's data key as the user service hands it to another service (the service credential opens it). */
export function personKeysFromUserService(config: { USER_SERVICE_URL: string } & CallerSecrets): PersonKeySource {
  return async (userId) => {
    const data = await askSubgraph(
      { url: config.USER_SERVICE_URL, credentials: config },
      PersonDataKeyDocument,
      { userId },
      'user service',
    );
    return data.personDataKey ? Buffer.from(data.personDataKey, 'base64') : null;
  };
}
