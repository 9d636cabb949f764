import { randomBytes } from 'node:crypto';
import {
  ConfigError,
  isSealedForPerson,
  loadConfig,
  masterKeysFrom,
  newPersonKey,
  openForPerson,
  personDataSealingConfigShape,
  personKeyring,
  personKeyringFor,
  personKeysConfigShape,
  plainKeyring,
  sealForPerson,
  unwrapPersonKey,
  wrapPersonKey,
  type MasterKeys,
} from '../src';

const person = '6f1c3a52-8d0e-4b7a-9c1d-2e3f4a5b6c7d';
const someoneElse = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const masters = (...ids: string[]): MasterKeys => {
  const byId = new Map(ids.map((id) => [id, randomBytes(32)]));
  return { current: { id: ids[0]!, key: byId.get(ids[0]!)! }, byId };
};

describe('content sealed for a person', () => {
  const key = randomBytes(32);

  it('opens to what was sealed, and shows none of it', () => {
    const sealed = sealForPerson(key, person, 'Slept badly, talked to my sister');
    expect(isSealedForPerson(sealed)).toBe(true);
    expect(sealed).not.toMatch(/sister/);
    expect(openForPerson(key, person, sealed)).toBe('Slept badly, talked to my sister');
    expect(sealForPerson(key, person, 'the same words')).not.toBe(sealForPerson(key, person, 'the same words'));
  });

  it('opens with nothing else: another key, another person’s id, an altered byte', () => {
    const sealed = sealForPerson(key, person, 'my own words');
    expect(openForPerson(randomBytes(32), person, sealed)).toBeNull();
    expect(openForPerson(key, someoneElse, sealed)).toBeNull();
    const altered = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    expect(openForPerson(key, person, altered)).toBeNull();
    expect(openForPerson(key, person, sealed.slice(0, 12))).toBeNull();
  });

  it('reads a value stored before encryption as it is', () => {
    expect(openForPerson(key, person, 'written before keys existed')).toBe('written before keys existed');
  });
});

describe('a person’s key wrapped by a master key', () => {
  it('unwraps with the master key that wrapped it, for that person alone', () => {
    const keys = masters('one');
    const dataKey = randomBytes(32);
    const wrapped = wrapPersonKey(keys, person, dataKey);
    expect(wrapped.masterKeyId).toBe('one');
    expect(wrapped.wrappedKey).not.toContain(dataKey.toString('base64url'));
    expect(unwrapPersonKey(keys, person, wrapped)).toEqual(dataKey);
    expect(unwrapPersonKey(keys, someoneElse, wrapped)).toBeNull();
    expect(unwrapPersonKey(masters('one'), person, wrapped)).toBeNull();
    expect(unwrapPersonKey(masters('two'), person, wrapped)).toBeNull();
  });

  it('issues a fresh key per person', () => {
    const keys = masters('one');
    const first = unwrapPersonKey(keys, person, newPersonKey(keys, person));
    const second = unwrapPersonKey(keys, person, newPersonKey(keys, person));
    expect(first).toHaveLength(32);
    expect(first).not.toEqual(second);
  });
});

describe('PERSON_MASTER_KEYS', () => {
  const entry = (id: string, bytes = 32) => `${id}:${randomBytes(bytes).toString('base64')}`;
  const problemOf = (value: string) => {
    try {
      loadConfig(personKeysConfigShape, { PERSON_MASTER_KEYS: value });
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('lists the current master key first, and every listed key unwraps', () => {
    const keys = masterKeysFrom({
      NODE_ENV: 'production',
      PERSON_MASTER_KEYS: `${entry('2026-11')},${entry('2025-01')}`,
    });
    expect(keys.current.id).toBe('2026-11');
    expect([...keys.byId.keys()]).toEqual(['2026-11', '2025-01']);
  });

  it('refuses a malformed list by name', () => {
    expect(problemOf(entry('short', 16))).toMatch(/PERSON_MASTER_KEYS: the key of short must be 32 bytes/);
    expect(problemOf('no-separator')).toMatch(/PERSON_MASTER_KEYS: each entry must be id:key/);
    expect(problemOf(`${entry('same')},${entry('same')}`)).toMatch(/PERSON_MASTER_KEYS: same is listed twice/);
    expect(problemOf(entry('fine'))).toBeNull();
  });

  it('is required in production; development derives one', () => {
    expect(() => masterKeysFrom({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(masterKeysFrom({ NODE_ENV: 'development' }).current.id).toBe('development');
  });
});

describe('the keyring a service seals with', () => {
  it('asks for a person’s key once while it is kept, and again once forgotten', async () => {
    const key = randomBytes(32);
    const asked: string[] = [];
    const keyring = personKeyring(async (userId) => (asked.push(userId), key));
    const sealed = await keyring.seal(person, 'kept words');
    expect(await keyring.open(person, sealed)).toBe('kept words');
    expect(asked).toEqual([person]);
    keyring.forget(person);
    expect(await keyring.open(person, sealed)).toBe('kept words');
    expect(asked).toEqual([person, person]);
    expect(await keyring.open(person, null)).toBeNull();
  });

  it('seals nothing for a person without a key, opens nothing of theirs, and asks again next time', async () => {
    let key: Buffer | null = randomBytes(32);
    const asked: string[] = [];
    const keyring = personKeyring(async (userId) => (asked.push(userId), key));
    const sealed = await keyring.seal(person, 'words');
    keyring.forget(person);
    key = null;
    expect(await keyring.open(person, sealed)).toBeNull();
    await expect(keyring.seal(person, 'more words')).rejects.toThrow(/being deleted/);
    expect(asked).toEqual([person, person, person]);
  });

  it('asks again when the key could not be reached', async () => {
    let reachable = false;
    const key = randomBytes(32);
    const keyring = personKeyring(async () => {
      if (!reachable) throw new Error('user service down');
      return key;
    });
    await expect(keyring.seal(person, 'words')).rejects.toThrow(/user service down/);
    reachable = true;
    expect(await keyring.open(person, await keyring.seal(person, 'words'))).toBe('words');
  });
});

describe('PERSON_DATA_SEALING', () => {
  const source = async () => randomBytes(32);

  it('is on unless set off', () => {
    expect(loadConfig(personDataSealingConfigShape, {}).PERSON_DATA_SEALING).toBe(true);
    expect(loadConfig(personDataSealingConfigShape, { PERSON_DATA_SEALING: '0' }).PERSON_DATA_SEALING).toBe(false);
    expect(() => loadConfig(personDataSealingConfigShape, { PERSON_DATA_SEALING: 'off' })).toThrow(ConfigError);
  });

  it('seals when on, in production too', async () => {
    const keyring = personKeyringFor({ PERSON_DATA_SEALING: true, NODE_ENV: 'production' }, source);
    expect(isSealedForPerson(await keyring.seal(person, 'words'))).toBe(true);
  });

  it('stores text as it is when off', async () => {
    const keyring = personKeyringFor({ PERSON_DATA_SEALING: false, NODE_ENV: 'development' }, source);
    expect(await keyring.seal(person, 'plain words')).toBe('plain words');
  });

  it('cannot be off in production', () => {
    expect(() => personKeyringFor({ PERSON_DATA_SEALING: false, NODE_ENV: 'production' }, source)).toThrow(
      new ConfigError('Invalid configuration:\n  PERSON_DATA_SEALING: cannot be off in production'),
    );
  });
});

describe('the plain keyring', () => {
  it('stores text as it is and reads any stored value back as it is, asking for no key', async () => {
    const keyring = plainKeyring();
    expect(await keyring.seal(person, 'my own words')).toBe('my own words');
    expect(await keyring.open(person, 'my own words')).toBe('my own words');
    const sealedEarlier = sealForPerson(randomBytes(32), person, 'sealed words');
    expect(await keyring.open(person, sealedEarlier)).toBe(sealedEarlier);
    expect(await keyring.open(person, null)).toBeNull();
    expect(await keyring.open(person, undefined)).toBeNull();
    keyring.forget(person);
    expect(await keyring.open(person, 'still words')).toBe('still words');
  });
});
