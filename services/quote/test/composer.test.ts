import { supportResourcesFor } from '@haven/domain';
import { dimensions, isCrisis, salientDimensions, type Ratings, type TimeOfDay } from '../src/domain/assessment';
import {
  compose,
  crisisMessageId,
  crisisText,
  focusDimensions,
  noRepeatWindow,
  showsCrisis,
} from '../src/domain/composer';
import { library } from '../src/domain/library';

/** A small seeded generator, so a failure can be replayed. */
function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const calm = (): Ratings => Object.fromEntries(dimensions.map((dimension) => [dimension, 3])) as Ratings;
const times: TimeOfDay[] = ['morning', 'afternoon', 'evening'];

describe('the library', () => {
  it('holds at least 300 distinct messages with unique ids, for every dimension and time of day', () => {
    expect(library.length).toBeGreaterThanOrEqual(300);
    expect(new Set(library.map((message) => message.id)).size).toBe(library.length);
    expect(new Set(library.map((message) => message.text)).size).toBe(library.length);
    for (const dimension of dimensions) {
      for (const time of ['any', ...times]) {
        expect(library.filter((m) => m.dimension === dimension && m.timeOfDay === time).length).toBeGreaterThanOrEqual(
          4,
        );
      }
    }
  });

  it('keeps to the voice: no clichés of toxic positivity, no "you should", short enough to read at a glance', () => {
    const banned = [
      /you should/i,
      /you've got this/i,
      /everything happens for a reason/i,
      /think positive/i,
      /committed suicide/i,
      /lazy/i,
      /broken/i,
    ];
    for (const message of library) {
      for (const pattern of banned) expect(`${message.id}: ${message.text}`).not.toMatch(pattern);
      expect(message.text.length).toBeLessThanOrEqual(240);
    }
  });
});

describe('compose', () => {
  it('answers a calm check-in with a steady message of its time of day', () => {
    const reply = compose({ ratings: calm(), timeOfDay: 'evening', recentMessageIds: [] }, () => 0);
    expect(reply.messageId).toMatch(/^steady\.evening\./);
    expect(reply.crisis).toBe(false);
  });

  it('speaks to the lowest wellbeing dimension at its time of day', () => {
    const ratings = { ...calm(), sleepQuality: 1 };
    const reply = compose({ ratings, timeOfDay: 'morning', recentMessageIds: [] }, () => 0.5);
    expect(reply.messageId).toMatch(/^sleepQuality\.(any|morning)\./);
  });

  it('puts support resources first when urgency is 5 and hope is 1 or 2, with the not-therapy line', () => {
    const ratings = { ...calm(), urgencyOfNeed: 5, hopeForFuture: 2 };
    const uk = compose({ ratings, timeOfDay: 'evening', recentMessageIds: [], country: 'GB' });
    expect(uk.crisis).toBe(true);
    expect(uk.messageId).toBe(crisisMessageId);
    const lines = uk.text.split('\n');
    expect(lines[1]).toBe('Samaritans: Call 116 123 (free, 24 hours).');
    expect(lines[2]).toBe('Shout: Text SHOUT to 85258.');
    expect(uk.text).toContain('Haven is not therapy');
    expect(compose({ ratings, timeOfDay: 'evening', recentMessageIds: [], country: 'US' }).text).toContain(
      '988 Suicide & Crisis Lifeline: Call or text 988 (free, 24 hours).',
    );
    // No country known: the directory and the local emergency number, never another country's lines.
    const nowhere = compose({ ratings, timeOfDay: 'evening', recentMessageIds: [] }).text;
    expect(nowhere).toContain('Find A Helpline');
    expect(nowhere).toContain('If your life is in danger, call your local emergency number.');
    expect(nowhere).not.toMatch(/116 123|988|999|911/);
    expect(compose({ ratings, timeOfDay: 'evening', recentMessageIds: [], country: 'FR' }).text).toContain(
      '3114, the national suicide prevention line: Call 3114 (free, 24 hours).',
    );
    const inJapan = compose({ ratings, timeOfDay: 'evening', recentMessageIds: [], country: 'JP' }).text;
    expect(inJapan).toContain('Find A Helpline');
    expect(inJapan).toContain('If your life is in danger, call 119.');
    expect(isCrisis({ ...calm(), urgencyOfNeed: 5, hopeForFuture: 3 })).toBe(false);
    expect(isCrisis({ ...calm(), urgencyOfNeed: 4, hopeForFuture: 1, supportSystemStrength: 1 })).toBe(true);
  });

  it('answers crisis in the notes with the same crisis reply as the ratings, whatever the ratings say', () => {
    const bright = Object.fromEntries(
      dimensions.map((dimension) => [
        dimension,
        ['stressLevel', 'anxietyLevel', 'currentChallengeLevel', 'urgencyOfNeed'].includes(dimension) ? 1 : 5,
      ]),
    ) as Ratings;
    const notes = 'Good run this morning. honestly i want to end it all and nobody knows';
    const byRatings = compose({
      ratings: { ...calm(), urgencyOfNeed: 5, hopeForFuture: 1 },
      timeOfDay: 'morning',
      recentMessageIds: [],
    });
    expect(byRatings.text).toBe(crisisText(supportResourcesFor(null)));
    for (const ratings of [calm(), bright]) {
      expect(compose({ ratings, timeOfDay: 'morning', notes, recentMessageIds: [] })).toEqual(byRatings);
    }
    expect(
      compose({ ratings: calm(), timeOfDay: 'morning', notes, recentMessageIds: [], country: 'US' }).text,
    ).toContain('988 Suicide & Crisis Lifeline');
  });

  it('keeps the ordinary reply for everyday idiom and hard days in the notes', () => {
    for (const notes of ['this job is killing me', 'dead tired, could murder a pizza', 'a stressful, sad day', null]) {
      const reply = compose({ ratings: calm(), timeOfDay: 'evening', notes, recentMessageIds: [] }, () => 0);
      expect(reply.crisis).toBe(false);
      expect(reply.messageId).toMatch(/^steady\.evening\./);
    }
  });

  it('decides crisis in one place: the rating patterns or the words', () => {
    expect(showsCrisis({ ratings: calm() })).toBe(false);
    expect(showsCrisis({ ratings: calm(), notes: 'I have been cutting myself again' })).toBe(true);
    expect(
      showsCrisis({ ratings: { ...calm(), urgencyOfNeed: 5, hopeForFuture: 2 }, notes: 'killed it at the gym' }),
    ).toBe(true);
  });

  /**
   * 1,000 quotes for one user, each check-in drawn at random (seeded). Checked for every quote:
   * - no repeat: its message id is not among the user's previous 20 message ids;
   * - it addresses the lowest dimensions: its dimension is one of the check-in's three most salient
   *   (lowest wellbeing or highest stress/anxiety/challenge/urgency, need of 4 or 5), whenever one of those
   *   still has an unused message for the time of day; otherwise one of the check-in's salient dimensions;
   *   a check-in with nothing on the hard side gets a steady message.
   */
  it('never repeats one of the last 20 and addresses the lowest dimensions, over 1,000 varied check-ins', () => {
    const random = mulberry32(20261123);
    const history: string[] = [];
    let crises = 0;
    let top = 0;
    for (let index = 0; index < 1000; index += 1) {
      // Skew towards harder days half of the time, so the same few dimensions come back often.
      const skew = index % 2 === 0;
      const ratings = Object.fromEntries(
        dimensions.map((dimension) => [
          dimension,
          1 +
            Math.floor(random() * (skew ? 3 : 5)) +
            (skew && ['stressLevel', 'anxietyLevel', 'currentChallengeLevel', 'urgencyOfNeed'].includes(dimension)
              ? 2
              : 0),
        ]),
      ) as Ratings;
      const timeOfDay = times[Math.floor(random() * 3)]!;
      const recent = history.slice(0, noRepeatWindow);
      const reply = compose({ ratings, timeOfDay, recentMessageIds: recent }, random);
      if (reply.crisis) {
        crises += 1;
        continue; // the crisis reply is not a library message; it is stored but never blocks one
      }
      expect(recent).not.toContain(reply.messageId);
      const message = library.find((m) => m.id === reply.messageId)!;
      const salient = salientDimensions(ratings);
      const focus = salient.slice(0, focusDimensions);
      const focusAvailable = library.some(
        (m) =>
          (focus as string[]).includes(m.dimension) &&
          (m.timeOfDay === 'any' || m.timeOfDay === timeOfDay) &&
          !recent.includes(m.id),
      );
      if (salient.length === 0) expect(message.dimension).toBe('steady');
      else if (focusAvailable) {
        expect(focus).toContain(message.dimension);
        expect(['any', timeOfDay]).toContain(message.timeOfDay);
        top += 1;
      } else expect(salient).toContain(message.dimension);
      history.unshift(reply.messageId);
    }
    expect(crises).toBeGreaterThan(0);
    expect(top).toBeGreaterThan(500);
  });
});
