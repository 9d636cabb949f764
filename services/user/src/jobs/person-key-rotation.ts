/**
 * Master key rotation: once a new master key is listed first in PERSON_MASTER_KEYS (the old one still after it),
 * every person's data key still wrapped by an older master key is re-wrapped by the new one — at start and every
 * hour after, by one replica. When a pass reports none left, the old master key can be removed. The data keys
 * themselves, and so everything sealed under them, never change.
 */
import {
  runPeriodically,
  unwrapPersonKey,
  wrapPersonKey,
  type Logger,
  type MasterKeys,
  type PeriodicWork,
} from '@haven/platform';
import type { Model } from 'mongoose';
import type { PersonKeyRecord } from '../model/person-key';

export const personKeyRotationIntervalMs = 60 * 60 * 1000;

/** Re-wraps every data key not wrapped by the current master key; says how many moved and how many cannot be opened. */
export async function rewrapPersonKeys(
  personKeys: Model<PersonKeyRecord>,
  masters: MasterKeys,
): Promise<{ rewrapped: number; unreadable: number }> {
  let rewrapped = 0;
  let unreadable = 0;
  const older = personKeys
    .find({ masterKeyId: { $ne: masters.current.id } })
    .lean<PersonKeyRecord>()
    .cursor();
  for await (const stored of older) {
    const dataKey = unwrapPersonKey(masters, stored._id, stored);
    if (!dataKey) {
      unreadable += 1;
      continue;
    }
    // Compare-and-set: a key erased or re-wrapped meanwhile is left as it now is.
    const moved = await personKeys.updateOne(
      { _id: stored._id, masterKeyId: stored.masterKeyId, wrappedKey: stored.wrappedKey },
      { $set: wrapPersonKey(masters, stored._id, dataKey) },
    );
    rewrapped += moved.modifiedCount;
  }
  return { rewrapped, unreadable };
}

export function startPersonKeyRotation(
  personKeys: Model<PersonKeyRecord>,
  masters: MasterKeys,
  log: Logger,
): PeriodicWork<unknown> {
  const rotate = async () => {
    const { rewrapped, unreadable } = await rewrapPersonKeys(personKeys, masters);
    if (rewrapped > 0)
      log.info({ rewrapped, masterKeyId: masters.current.id }, 'person keys re-wrapped by the current master key');
    // Their master key was removed before they moved: restore it to PERSON_MASTER_KEYS, or their content stays unreadable.
    if (unreadable > 0) log.error({ unreadable }, 'person keys wrapped by a master key no longer configured');
    return { rewrapped, unreadable };
  };
  const work = runPeriodically(rotate, {
    intervalMs: personKeyRotationIntervalMs,
    log,
    what: 'person key rotation',
    lease: { db: personKeys.db, name: 'person-key-rotation' },
  });
  work.runOnce().catch((error: unknown) => log.warn({ err: error }, 'person key rotation failed'));
  return work;
}
