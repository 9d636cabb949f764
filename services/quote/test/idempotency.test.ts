import { randomUUID } from 'node:crypto';
import { keyedCheckInId, validateIdempotencyKey } from '../src/domain/idempotency';

describe('the idempotency key of a check-in', () => {
  it('is optional: absent or null is no key', () => {
    expect(validateIdempotencyKey(undefined)).toEqual({ ok: true, value: null });
    expect(validateIdempotencyKey(null)).toEqual({ ok: true, value: null });
  });

  it('is 1 to 200 printable ASCII characters, kept as sent', () => {
    for (const key of ['k', ' spaced out ', '~!@#$%^&*()_+{}|:"<>?', 'x'.repeat(200), randomUUID()]) {
      expect(validateIdempotencyKey(key)).toEqual({ ok: true, value: key });
    }
  });

  it('refuses empty, too long, outside printable ASCII or not text, naming the field', () => {
    for (const key of ['', 'x'.repeat(201), 'café', 'line\nbreak', 'tab\tbed', '\u0000', 'emoji 🙂', 42, {}]) {
      const result = validateIdempotencyKey(key);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.problems).toEqual([
          { field: 'idempotencyKey', message: 'The idempotency key must be 1 to 200 printable ASCII characters' },
        ]);
      }
    }
  });

  it('names one check-in id per user and key, in the shape of a name-based UUID', () => {
    const id = keyedCheckInId('user-1', 'submission-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keyedCheckInId('user-1', 'submission-1')).toBe(id);
    expect(keyedCheckInId('user-2', 'submission-1')).not.toBe(id);
    expect(keyedCheckInId('user-1', 'submission-2')).not.toBe(id);
    // The separator keeps the user and the key apart: "ab" + "c" is not "a" + "bc".
    expect(keyedCheckInId('ab', 'c')).not.toBe(keyedCheckInId('a', 'bc'));
  });

  it('never names the id of a check-in sent without a key (random, version 4)', () => {
    expect(keyedCheckInId('user-1', 'k')[14]).toBe('8');
    expect(randomUUID()[14]).toBe('4');
  });
});
