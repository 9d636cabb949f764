/**
 * The seeded history is what the quote service stores for a check-in today (sealed under the person's key, read
 * back by the service's own functions), and the read-back check refuses pages that do not show it.
 */
import { isSealedForPerson, personKeyring } from '@haven/platform';
import { randomBytes } from 'node:crypto';
import { dimensions } from '../../../services/quote/src/domain/assessment';
import { emotionalStateOf, moodOf } from '../../../services/quote/src/domain/progress';
import { ratingsOfCheckIn } from '../../../services/quote/src/model/check-in';
import { entriesOf, averageMoodOf } from '../../../services/quote/src/model/progress';
import { emotionalStateOfQuote } from '../../../services/quote/src/model/quote';
import { seededHistory, seededHistoryProblems, seededQuoteText, seededRatings } from '../quote';

const userId = '0b6f1d2e-5c1a-4c7e-9a57-2f0c3e8d4b11';
const now = Date.UTC(2026, 10, 30, 12);

function keyringWithNewKey() {
  let asked = 0;
  const key = randomBytes(32);
  const keyring = personKeyring(async () => {
    asked += 1;
    return key;
  });
  return { keyring, asked: () => asked };
}

describe('seededHistory', () => {
  it('stores each check-in and quote sealed under the person key, and the service reads them back', async () => {
    const { keyring } = keyringWithNewKey();
    const history = await seededHistory(keyring, userId, 50, 1, now);

    expect(history.checkIns).toHaveLength(50);
    expect(history.quotes).toHaveLength(50);
    for (const [index, checkIn] of history.checkIns.entries()) {
      const quote = history.quotes[index]!;
      // Nothing of the ratings in clear: no field per dimension, and the sealed values only.
      for (const dimension of dimensions) expect(checkIn).not.toHaveProperty(dimension);
      expect(isSealedForPerson(checkIn.ratings!)).toBe(true);
      expect(isSealedForPerson(quote.emotionalState as string)).toBe(true);
      expect(isSealedForPerson(quote.text)).toBe(true);
      expect(quote.checkInId).toBe(checkIn._id);
      expect(quote.createdAt).toEqual(checkIn.createdAt);
      expect(await ratingsOfCheckIn(keyring, checkIn)).toEqual(seededRatings(index));
      expect(await emotionalStateOfQuote(keyring, quote)).toEqual(emotionalStateOf(seededRatings(index)));
      expect(await keyring.open(userId, quote.text)).toBe(seededQuoteText);
    }
  });

  it('keeps the progress the check-ins fold into, over the span up to now, oldest first', async () => {
    const { keyring } = keyringWithNewKey();
    const history = await seededHistory(keyring, userId, 200, 2, now);
    const moods = Array.from({ length: 200 }, (_, index) => moodOf(seededRatings(index)));

    expect(entriesOf(history.progress)).toBe(200);
    expect(averageMoodOf(history.progress)).toBeCloseTo(moods.reduce((sum, mood) => sum + mood, 0) / 200, 10);
    expect(history.progress.folded).toEqual(history.checkIns.slice(-64).map((checkIn) => checkIn._id));
    const times = history.checkIns.map((checkIn) => checkIn.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBe(now - 2 * 365 * 86_400_000);
    expect(times.at(-1)!).toBeLessThan(now);
  });

  it('asks for the person key once for the whole history', async () => {
    const { keyring, asked } = keyringWithNewKey();
    await seededHistory(keyring, userId, 300, 1, now);
    expect(asked()).toBe(1);
  });
});

describe('seededHistoryProblems', () => {
  const count = 40;
  const analytics = (overrides: object = {}) => ({
    totalEntries: count,
    moodTrends: {
      moodHistory: Array.from({ length: 30 }, (_, i) => Math.round(moodOf(seededRatings(count - 1 - i)) * 100) / 100),
    },
    ...overrides,
  });
  const recent = (count: number, text = seededQuoteText) => ({
    quotes: Array.from({ length: 20 }, (_, i) => ({
      id: `q${i}`,
      text,
      emotionalState: emotionalStateOf(seededRatings(count - 1 - i)),
    })),
  });

  it('finds nothing wrong with pages that show the seeded history, newest first', () => {
    expect(seededHistoryProblems(count, analytics(), recent(count))).toEqual([]);
  });

  it('names pages that show an empty history', () => {
    const problems = seededHistoryProblems(count, { totalEntries: 0, moodTrends: { moodHistory: [] } }, { quotes: [] });
    expect(problems).toEqual([
      'analytics: totalEntries 0, not 40',
      'analytics: moodHistory [], not the seeded moods',
      'recent quotes: none ({"quotes":[]})',
    ]);
  });

  it('names quotes whose words or ratings did not open as seeded', () => {
    const sealed = recent(count, 'hp1.not-opened');
    expect(seededHistoryProblems(count, analytics(), sealed)).toContain('recent quote 0: text "hp1.not-opened"');
    const shifted = recent(count + 1);
    expect(seededHistoryProblems(count, analytics(), shifted)).toContain(
      'recent quote 0: emotionalState ' + JSON.stringify(shifted.quotes[0]!.emotionalState) + ', not the seeded one',
    );
  });
});
