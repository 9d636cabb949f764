import { checkInDimensions } from '@haven/domain/src/check-in-rules';
import {
  afterOutcome,
  outcomeOfFailure,
  readWaiting,
  waitingShowsCrisis,
  waitingStorageKey,
  waitingWords,
  withWaiting,
  type WaitingCheckIn,
} from './waitingCheckIns';

const calm = Object.fromEntries(checkInDimensions.map((dimension) => [dimension, 3])) as Record<string, number>;

function checkIn(key: string, userId = 'user-a', ratings: Record<string, number> = {}): WaitingCheckIn {
  return {
    userId,
    savedAt: '2026-11-29T10:42:00.000Z',
    input: { ...calm, ...ratings, timeOfDayPreference: 'evening', notes: null, idempotencyKey: key },
  };
}

/** Errors shaped as Apollo hands them: GraphQL errors, an HTTP reply, or no answer at all. */
const graphQLError = (code: string, message = 'Refused.') => ({ errors: [{ message, extensions: { code } }] });
const httpError = (statusCode: number, bodyText = '') => ({ statusCode, bodyText });

describe('check-ins waiting on the device', () => {
  it('keeps each check-in once, by the key it was made with, oldest first', () => {
    const list = withWaiting(withWaiting([], checkIn('k1')), checkIn('k2'));
    expect(list.map((item) => item.input.idempotencyKey)).toEqual(['k1', 'k2']);
    expect(withWaiting(list, checkIn('k1'))).toEqual(list);
  });

  it("keeps each account's check-ins under its own storage entry, and reads back only that account's", () => {
    expect(waitingStorageKey('user-a')).not.toBe(waitingStorageKey('user-b'));
    const stored = JSON.stringify([checkIn('k1', 'user-a'), checkIn('k2', 'user-b')]);
    expect(readWaiting(stored, 'user-a').map((item) => item.input.idempotencyKey)).toEqual(['k1']);
    expect(readWaiting(stored, 'user-b').map((item) => item.input.idempotencyKey)).toEqual(['k2']);
    expect(readWaiting(stored, 'user-c')).toEqual([]);
  });

  it('reads nothing from storage that holds no well-formed check-ins, and each key once', () => {
    expect(readWaiting(null, 'user-a')).toEqual([]);
    expect(readWaiting('not json', 'user-a')).toEqual([]);
    expect(readWaiting('{"a":1}', 'user-a')).toEqual([]);
    const withoutKey = { ...checkIn('k1'), input: { ...calm } };
    const missingRating = { ...checkIn('k2'), input: { idempotencyKey: 'k2' } };
    const badDate = { ...checkIn('k3'), savedAt: 'yesterday' };
    expect(readWaiting(JSON.stringify([withoutKey, missingRating, badDate]), 'user-a')).toEqual([]);
    expect(readWaiting(JSON.stringify([checkIn('k1'), checkIn('k1')]), 'user-a')).toHaveLength(1);
  });

  it('removes a check-in once the server stored it, and only that one', () => {
    const list = [checkIn('k1'), checkIn('k2')];
    expect(afterOutcome(list, 'k1', { kind: 'sent' }).map((item) => item.input.idempotencyKey)).toEqual(['k2']);
  });

  it('keeps a check-in that got no answer, or one a later try can change', () => {
    const list = [checkIn('k1')];
    const keptAfter = [
      new TypeError('Failed to fetch'),
      graphQLError('TOO_MANY_REQUESTS'),
      httpError(429, JSON.stringify(graphQLError('TOO_MANY_REQUESTS'))),
      graphQLError('UNAUTHENTICATED'),
      graphQLError('CONFLICT', 'Still being saved'),
      graphQLError('INTERNAL_SERVER_ERROR'),
      httpError(502),
      httpError(503, JSON.stringify(graphQLError('SERVICE_UNAVAILABLE'))),
      httpError(401),
      httpError(408),
    ];
    for (const error of keptAfter) {
      expect([error, outcomeOfFailure(error)]).toEqual([error, { kind: 'kept' }]);
      expect(afterOutcome(list, 'k1', outcomeOfFailure(error))).toEqual(list);
    }
  });

  it("removes a check-in the server refused for good, with the server's words to tell the person", () => {
    const list = [checkIn('k1')];
    const invalid = graphQLError('BAD_USER_INPUT', 'notes must be at most 1000 characters');
    expect(outcomeOfFailure(invalid)).toEqual({ kind: 'refused', message: 'notes must be at most 1000 characters' });
    expect(afterOutcome(list, 'k1', outcomeOfFailure(invalid))).toEqual([]);
    expect(outcomeOfFailure(graphQLError('FORBIDDEN', 'Please subscribe.')).kind).toBe('refused');
    expect(outcomeOfFailure(httpError(400, JSON.stringify(graphQLError('GRAPHQL_VALIDATION_FAILED')))).kind).toBe(
      'refused',
    );
    expect(outcomeOfFailure(httpError(413))).toEqual({ kind: 'refused', message: waitingWords.refusedFallback });
  });

  it('shows crisis help at once for a waiting check-in whose ratings show crisis signals', () => {
    expect(waitingShowsCrisis([checkIn('k1')])).toBe(false);
    expect(waitingShowsCrisis([checkIn('k1'), checkIn('k2', 'user-a', { urgencyOfNeed: 5, hopeForFuture: 1 })])).toBe(
      true,
    );
    expect(
      waitingShowsCrisis([checkIn('k3', 'user-a', { urgencyOfNeed: 4, hopeForFuture: 1, supportSystemStrength: 1 })]),
    ).toBe(true);
    expect(waitingShowsCrisis([checkIn('k4', 'user-a', { urgencyOfNeed: 4, hopeForFuture: 2 })])).toBe(false);
  });

  it('says where a waiting check-in is and what happens next, and what a refusal means', () => {
    expect(waitingWords.description(1)).toBe(
      'Your check-in is saved on this device and will be sent when the connection is back. Your supportive message will show here then.',
    );
    expect(waitingWords.description(2)).toMatch(/^Your 2 check-ins are saved on this device/);
    expect(waitingWords.refused('10:42', 'Please subscribe to access this feature.')).toBe(
      'Your check-in from 10:42 could not be saved: Please subscribe to access this feature. It is no longer kept on this device.',
    );
    expect(waitingWords.refused('10:42', 'Out of range')).toMatch(/: Out of range\. It is/);
    expect(waitingWords.signOutQuestion(1)).toBe(
      '1 check-in saved on this device has not been sent yet. Signing out removes it from this device. Sign out anyway?',
    );
    expect(waitingWords.signOutQuestion(3)).toMatch(/^3 check-ins .* have not been sent yet\. .* removes them/);
  });
});
