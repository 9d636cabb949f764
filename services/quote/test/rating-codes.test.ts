import { dimensions, type Ratings } from '../src/domain/assessment';
import { emotionalStateOf, emotionalStateRatings } from '../src/domain/progress';
import { decodeRatings, encodeRatings } from '../src/domain/rating-codes';

const ratings = Object.fromEntries(dimensions.map((dimension, index) => [dimension, 1 + (index % 5)])) as Ratings;

describe('the code a check-in’s ratings are sealed as', () => {
  it('is one digit per rating, in the order of the names', () => {
    expect(encodeRatings(dimensions, ratings)).toBe('123451234512345');
    expect(encodeRatings(emotionalStateRatings, emotionalStateOf(ratings))).toHaveLength(8);
  });

  it('decodes to exactly the ratings it was made of', () => {
    expect(decodeRatings(dimensions, encodeRatings(dimensions, ratings))).toEqual(ratings);
    const state = emotionalStateOf(ratings);
    expect(decodeRatings(emotionalStateRatings, encodeRatings(emotionalStateRatings, state))).toEqual(state);
  });

  it('refuses to encode a rating outside 1–5 or not whole, naming it', () => {
    for (const value of [0, 6, 2.5, Number.NaN]) {
      expect(() => encodeRatings(dimensions, { ...ratings, sleepQuality: value })).toThrow(/sleepQuality/);
    }
  });

  it('decodes nothing from a code of the wrong length or with a digit outside 1–5', () => {
    for (const code of ['', '12345', '1234512345123456', '123451234512340', '12345123451234x', '12345 2345123451']) {
      expect(decodeRatings(dimensions, code)).toBeNull();
    }
  });
});
