import {
  decodeEvent,
  encodeEvent,
  EnvelopeSchema,
  erasureEventTypes,
  eventSchemas,
  isEventType,
  producerOf,
  producerServices,
  timestampDate,
  topicOf,
  UnknownEventError,
  userDataPurgedType,
} from '../src';
import { create, toBinary } from '@bufbuild/protobuf';

describe('event envelope', () => {
  it('round-trips a user.registered event with its envelope fields', () => {
    const occurredAt = new Date('2026-01-02T03:04:05.000Z');
    const encoded = encodeEvent({
      type: 'user.registered',
      producer: 'user',
      subjectId: 'u-1',
      correlationId: 'c-1',
      occurredAt,
      payload: {
        userId: 'u-1',
        email: 'ann@example.com',
        firstName: 'Ann',
        authProvider: 'email',
        verification: { token: 't0k' },
      },
    });
    expect(encoded.topic).toBe(topicOf('user'));
    expect(encoded.key).toBe('u-1');

    const decoded = decodeEvent(encoded.value);
    expect(decoded.type).toBe('user.registered');
    expect(decoded.envelope.eventId).toBe(encoded.eventId);
    expect(decoded.envelope.correlationId).toBe('c-1');
    expect(decoded.envelope.producer).toBe('user');
    expect(timestampDate(decoded.envelope.occurredAt!)).toEqual(occurredAt);
    expect(decoded.payload).toMatchObject({
      userId: 'u-1',
      email: 'ann@example.com',
      firstName: 'Ann',
      verification: { token: 't0k' },
    });
  });

  it('gives every event its own id', () => {
    const make = () =>
      encodeEvent({
        type: 'user.email_verified',
        producer: 'user',
        subjectId: 'u',
        correlationId: 'c',
        payload: { userId: 'u', email: 'u@example.com' },
      });
    expect(make().eventId).not.toBe(make().eventId);
  });

  it('cannot publish the retired user.deleted, and registers a purge confirmation for every service', () => {
    expect(isEventType('user.deleted')).toBe(false);
    for (const service of producerServices) {
      expect(isEventType(userDataPurgedType(service))).toBe(true);
      expect(erasureEventTypes.has(userDataPurgedType(service))).toBe(true);
    }
    expect(erasureEventTypes.has('account.deletion_requested')).toBe(true);
    expect(erasureEventTypes.has('quote.generated')).toBe(false);
  });

  it('refuses an envelope whose type is not in the registry', () => {
    const bytes = toBinary(EnvelopeSchema, create(EnvelopeSchema, { eventId: 'e', type: 'user.exploded' }));
    expect(() => decodeEvent(bytes)).toThrow(UnknownEventError);
  });

  it('refuses bytes that are not an envelope', () => {
    expect(() => decodeEvent(new Uint8Array([0xff, 0xff, 0xff]))).toThrow();
  });
});

describe('the service each event type belongs to', () => {
  it('names a producing service for every type: its first word, and compliance for the deletion saga', () => {
    for (const type of Object.keys(eventSchemas) as Array<keyof typeof eventSchemas>) {
      expect(producerServices).toContain(producerOf(type));
    }
    expect(producerOf('quote.entry_edited')).toBe('quote');
    expect(producerOf('account.deletion_requested')).toBe('compliance');
    expect(producerOf('billing.user_data_purged')).toBe('billing');
  });
});
