import {
  decodeEvent,
  encodeEvent,
  personalFieldsOf,
  withPersonalFieldsOpened,
  withPersonalFieldsSealed,
  type DecodedEvent,
} from '@haven/proto';
import { randomBytes } from 'node:crypto';
import { personKeyring } from '../src';

const person = '2b7f0c1e-5d4a-4e3b-9a8c-7d6e5f4a3b2c';

/** A keyring whose only person is `person`, while `keyed` says their key exists. */
function keyringOf(state: { keyed: boolean }) {
  const key = randomBytes(32);
  return personKeyring(async (userId) => (state.keyed && userId === person ? key : null), { ttlMs: 0 });
}

const registered = () =>
  encodeEvent({
    type: 'user.registered',
    producer: 'user',
    subjectId: person,
    correlationId: 'c',
    payload: { userId: person, email: 'wren.ash@example.com', firstName: 'Wren', lastName: 'Ash', timeZone: 'UTC' },
  }).value;

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('an event’s personal fields', () => {
  it('leave sealed under the person’s key, and open to what they were', async () => {
    const keyring = keyringOf({ keyed: true });
    const published = await withPersonalFieldsSealed(registered(), (subject, fields) =>
      keyring.trySeal(subject, fields),
    );
    expect(latin1(published)).not.toMatch(/wren|ash@|example\.com/i);
    const decoded = decodeEvent(published) as DecodedEvent<'user.registered'>;
    expect(decoded.payload).toMatchObject({ userId: person, email: '', firstName: '', lastName: '', timeZone: 'UTC' });
    expect(decoded.payload.sealedPersonal).toMatch(/^hp1\./);

    const opened = await withPersonalFieldsOpened(decoded, (subject, sealed) => keyring.open(subject, sealed));
    expect(opened?.payload).toMatchObject({
      email: 'wren.ash@example.com',
      firstName: 'Wren',
      lastName: 'Ash',
      timeZone: 'UTC',
      sealedPersonal: '',
    });
  });

  it('open to nothing once the person’s key is gone; leave without them when it already is', async () => {
    const state = { keyed: true };
    const keyring = keyringOf(state);
    const published = await withPersonalFieldsSealed(registered(), (subject, fields) =>
      keyring.trySeal(subject, fields),
    );
    state.keyed = false;
    const decoded = decodeEvent(published) as DecodedEvent<'user.registered'>;
    expect(await withPersonalFieldsOpened(decoded, (subject, sealed) => keyring.open(subject, sealed))).toBeNull();

    const afterErasure = await withPersonalFieldsSealed(registered(), (subject, fields) =>
      keyring.trySeal(subject, fields),
    );
    expect(decodeEvent(afterErasure).payload).toMatchObject({ email: '', firstName: '', sealedPersonal: '' });
  });

  it('leaves events that name nobody as they are, and reads events published before sealing as they are', async () => {
    const keyring = keyringOf({ keyed: true });
    const profile = encodeEvent({
      type: 'user.profile_updated',
      producer: 'user',
      subjectId: person,
      correlationId: 'c',
      payload: { userId: person, timeZone: 'UTC' },
    }).value;
    expect(personalFieldsOf('user.profile_updated')).toEqual([]);
    expect(await withPersonalFieldsSealed(profile, (subject, fields) => keyring.trySeal(subject, fields))).toBe(
      profile,
    );
    const older = decodeEvent(registered());
    expect(await withPersonalFieldsOpened(older, (subject, sealed) => keyring.open(subject, sealed))).toBe(older);
  });

  it('carry a check-in’s moods and ratings sealed, and open to the numbers they were', async () => {
    const keyring = keyringOf({ keyed: true });
    const ratings = { stressLevel: 4, sleepQuality: 2, hopeForFuture: 5 };
    const edited = encodeEvent({
      type: 'quote.entry_edited',
      producer: 'quote',
      subjectId: person,
      correlationId: 'c',
      payload: { userId: person, quoteId: 'q', checkInId: 'k', moodScore: 3.5, previousMoodScore: 2.25, ratings },
    }).value;
    const published = await withPersonalFieldsSealed(edited, (subject, fields) => keyring.trySeal(subject, fields));
    const decoded = decodeEvent(published) as DecodedEvent<'quote.entry_edited'>;
    expect(decoded.payload).toMatchObject({ quoteId: 'q', moodScore: 0, previousMoodScore: 0 });
    expect(decoded.payload.ratings).toBeUndefined();
    expect(decoded.payload.sealedPersonal).toMatch(/^hp1\./);
    const opened = await withPersonalFieldsOpened(decoded, (subject, sealed) => keyring.open(subject, sealed));
    expect(opened?.payload).toMatchObject({ moodScore: 3.5, previousMoodScore: 2.25, ratings, sealedPersonal: '' });
    expect(personalFieldsOf('quote.generated')).toEqual(['moodScore', 'ratings']);
    expect(personalFieldsOf('quote.entry_deleted')).toEqual(['moodScore']);
  });

  it('names the address and names of every user and billing event that carries them', () => {
    expect(personalFieldsOf('user.email_changed')).toEqual(['oldEmail', 'newEmail', 'firstName']);
    expect(personalFieldsOf('billing.trial_started')).toEqual(['email', 'firstName']);
    expect(personalFieldsOf('billing.payment_method_updated')).toEqual(['email', 'firstName']);
    expect(personalFieldsOf('user.profile_updated')).toEqual([]);
  });
});
