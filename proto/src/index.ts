/**
 * The single source of truth for Kafka messages: every event is a protobuf
 * Envelope whose payload is the message that the registry names for its type.
 */
import { create, fromBinary, toBinary, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { EnvelopeSchema, type Envelope } from './gen/haven/events/v1/envelope_pb';
import {
  EmailChangedSchema,
  EmailChangeRequestedSchema,
  EmailVerificationRequestedSchema,
  EmailVerifiedSchema,
  PasswordChangedSchema,
  PasswordResetRequestedSchema,
  SignInMethodLinkedSchema,
  UserProfileUpdatedSchema,
  UserRegisteredSchema,
} from './gen/haven/events/v1/user_pb';
import { SubscriptionChangeSchema } from './gen/haven/events/v1/subscription_pb';
import {
  NewsletterBatchRequestedSchema,
  NewsletterConfirmationRequestedSchema,
  NewsletterDeliveryRequestedSchema,
  NewsletterPageRequestedSchema,
} from './gen/haven/events/v1/notification_pb';
import { EntryDeletedSchema, EntryEditedSchema, QuoteGeneratedSchema } from './gen/haven/events/v1/quote_pb';
import {
  AccountDeletionCompletedSchema,
  AccountDeletionRequestedSchema,
  UserDataPurgedSchema,
} from './gen/haven/events/v1/compliance_pb';

export * from './gen/haven/events/v1/envelope_pb';
export * from './gen/haven/events/v1/notification_pb';
export * from './gen/haven/events/v1/user_pb';
export * from './gen/haven/events/v1/subscription_pb';
export * from './gen/haven/events/v1/quote_pb';
export * from './gen/haven/events/v1/compliance_pb';
export { timestampDate, timestampFromDate };

/** Event type → payload schema. A type that is not here cannot be published. */
export const eventSchemas = {
  'user.registered': UserRegisteredSchema,
  'user.email_verification_requested': EmailVerificationRequestedSchema,
  'user.email_verified': EmailVerifiedSchema,
  // user.deleted was retired: account.deletion_requested says it, user.user_data_purged confirms it.
  // billing: every subscription event carries the user's access after it (event-carried state).
  'billing.trial_started': SubscriptionChangeSchema,
  'billing.activated': SubscriptionChangeSchema,
  'billing.renewed': SubscriptionChangeSchema,
  'billing.trial_will_end': SubscriptionChangeSchema,
  'billing.trial_expired': SubscriptionChangeSchema,
  'billing.payment_failed': SubscriptionChangeSchema,
  'billing.canceled': SubscriptionChangeSchema,
  'billing.reactivated': SubscriptionChangeSchema,
  'billing.ended': SubscriptionChangeSchema,
  // The subscription's card changed; access as before (a payment it brings through is billing.activated).
  'billing.payment_method_updated': SubscriptionChangeSchema,
  'notification.newsletter_confirmation_requested': NewsletterConfirmationRequestedSchema,
  'notification.newsletter_batch_requested': NewsletterBatchRequestedSchema,
  'notification.newsletter_delivery_requested': NewsletterDeliveryRequestedSchema,
  'quote.generated': QuoteGeneratedSchema,
  'quote.entry_deleted': EntryDeletedSchema,
  'quote.entry_edited': EntryEditedSchema,
  'user.profile_updated': UserProfileUpdatedSchema,
  'user.password_reset_requested': PasswordResetRequestedSchema,
  'user.password_changed': PasswordChangedSchema,
  'user.email_change_requested': EmailChangeRequestedSchema,
  'user.email_changed': EmailChangedSchema,
  'user.sign_in_method_linked': SignInMethodLinkedSchema,
  'notification.newsletter_page_requested': NewsletterPageRequestedSchema,
  // The account-deletion saga (compliance orchestrates; every service erases and confirms).
  'account.deletion_requested': AccountDeletionRequestedSchema,
  'account.deletion_completed': AccountDeletionCompletedSchema,
  'user.user_data_purged': UserDataPurgedSchema,
  'quote.user_data_purged': UserDataPurgedSchema,
  'billing.user_data_purged': UserDataPurgedSchema,
  'notification.user_data_purged': UserDataPurgedSchema,
  'compliance.user_data_purged': UserDataPurgedSchema,
} as const;

export type EventType = keyof typeof eventSchemas;
export type EventPayload<T extends EventType> = MessageShape<(typeof eventSchemas)[T]>;
export type EventPayloadInit<T extends EventType> = MessageInitShape<(typeof eventSchemas)[T]>;

export const producerServices = ['user', 'quote', 'billing', 'notification', 'compliance'] as const;
export type ProducerService = (typeof producerServices)[number];

/** One topic per producing service, keyed by user id. */
export function topicOf(producer: ProducerService): string {
  return `haven.${producer}.events`;
}

/**
 * The one service whose topic carries each event type: the type's first word, and the compliance service for the
 * account-deletion saga's `account.*`. Consumers refuse a type on any other topic, so a service that can write to a
 * topic still cannot speak for another (a forged `account.deletion_requested` erases nobody).
 */
export function producerOf(type: EventType): ProducerService {
  return type.startsWith('account.') ? 'compliance' : (type.slice(0, type.indexOf('.')) as ProducerService);
}

/** `<service>.user_data_purged`: a service's confirmation that it erased a deleted account's data. */
export type UserDataPurgedType = `${ProducerService}.user_data_purged`;

export function userDataPurgedType(service: ProducerService): UserDataPurgedType {
  return `${service}.user_data_purged`;
}

/**
 * The events of the erasure itself: delivered even when their subject was erased (the erasure guard
 * in platform/consumer.ts lets them through; every other event about an erased subject is skipped).
 */
export const erasureEventTypes: ReadonlySet<string> = new Set<string>([
  'account.deletion_requested',
  'account.deletion_completed',
  ...producerServices.map((service) => userDataPurgedType(service)),
]);

/** Where messages that failed every retry are parked, per consuming group. */
export function deadLetterTopicOf(consumerGroup: string): string {
  return `haven.${consumerGroup}.dlt`;
}

export function isEventType(type: string): type is EventType {
  return Object.prototype.hasOwnProperty.call(eventSchemas, type);
}

export interface NewEvent<T extends EventType> {
  type: T;
  producer: ProducerService;
  subjectId: string;
  correlationId: string;
  payload: EventPayloadInit<T>;
  occurredAt?: Date;
}

export interface EncodedEvent {
  eventId: string;
  type: EventType;
  topic: string;
  key: string;
  value: Uint8Array;
}

export function encodeEvent<T extends EventType>(event: NewEvent<T>): EncodedEvent {
  const schema = eventSchemas[event.type];
  // The registry pairs each type with its schema; TypeScript cannot follow the pairing through the index.
  const payload = toBinary(schema as never, create(schema as never, event.payload as never));
  const eventId = randomUUID();
  const envelope = create(EnvelopeSchema, {
    eventId,
    type: event.type,
    occurredAt: timestampFromDate(event.occurredAt ?? new Date()),
    correlationId: event.correlationId,
    producer: event.producer,
    subjectId: event.subjectId,
    payload,
  });
  return {
    eventId,
    type: event.type,
    topic: topicOf(event.producer),
    key: event.subjectId,
    value: toBinary(EnvelopeSchema, envelope),
  };
}

export interface DecodedEvent<T extends EventType = EventType> {
  envelope: Envelope;
  type: T;
  payload: EventPayload<T>;
}

export class UnknownEventError extends Error {}

/** Decodes an envelope and its payload; throws on malformed bytes or an unknown type. */
export function decodeEvent(bytes: Uint8Array): DecodedEvent {
  const envelope = fromBinary(EnvelopeSchema, bytes);
  if (!isEventType(envelope.type)) {
    throw new UnknownEventError(`unknown event type "${envelope.type}"`);
  }
  const payload = fromBinary(eventSchemas[envelope.type] as never, envelope.payload) as EventPayload<EventType>;
  return { envelope, type: envelope.type, payload };
}

/**
 * The payload fields of each event that name its person (their address and names) or tell what they wrote of
 * themselves (a check-in's ratings and mood). They are published only sealed under the person's own key, together
 * in `sealedPersonal` (platform person-keys.ts), so a copy of a topic says nothing of anyone once they are erased.
 */
const personalFieldsByType: Partial<Record<EventType, readonly string[]>> = {
  'user.registered': ['email', 'firstName', 'lastName'],
  'user.email_verification_requested': ['email', 'firstName'],
  'user.email_verified': ['email'],
  'user.password_reset_requested': ['email', 'firstName'],
  'user.password_changed': ['email', 'firstName'],
  'user.email_change_requested': ['newEmail', 'firstName'],
  'user.email_changed': ['oldEmail', 'newEmail', 'firstName'],
  'user.sign_in_method_linked': ['email', 'firstName'],
  'quote.generated': ['moodScore', 'ratings'],
  'quote.entry_deleted': ['moodScore'],
  'quote.entry_edited': ['moodScore', 'previousMoodScore', 'ratings'],
  ...Object.fromEntries(
    Object.entries(eventSchemas)
      .filter(([, schema]) => schema === SubscriptionChangeSchema)
      .map(([type]) => [type, ['email', 'firstName']]),
  ),
};

export function personalFieldsOf(type: string): readonly string[] {
  return isEventType(type) ? (personalFieldsByType[type] ?? []) : [];
}

type PersonalPayload = Record<string, unknown> & { sealedPersonal?: string };

/**
 * An encoded event with its personal fields moved into `sealedPersonal`: `seal` gets the subject's id and the
 * fields as JSON, and answers the sealed text, or null when the person has no key (erased: the fields are left
 * out). An event without personal fields, or with them already sealed, comes back as it is.
 */
export async function withPersonalFieldsSealed(
  bytes: Uint8Array,
  seal: (subjectId: string, fields: string) => Promise<string | null>,
): Promise<Uint8Array> {
  const envelope = fromBinary(EnvelopeSchema, bytes);
  const fields = personalFieldsOf(envelope.type);
  if (fields.length === 0) return bytes;
  const schema = eventSchemas[envelope.type as EventType];
  const payload = fromBinary(schema as never, envelope.payload) as PersonalPayload;
  const personal = Object.fromEntries(fields.filter((field) => payload[field]).map((field) => [field, payload[field]]));
  if (Object.keys(personal).length === 0) return bytes;
  const sealed = await seal(envelope.subjectId, JSON.stringify(personal));
  // Each left as its type's empty value: text empty, a number 0, a message absent.
  for (const field of fields) payload[field] = emptyOf(payload[field]);
  payload.sealedPersonal = sealed ?? '';
  envelope.payload = toBinary(schema as never, payload as never);
  return toBinary(EnvelopeSchema, envelope);
}

/**
 * The event with its personal fields restored from `sealedPersonal` by `open` (given the subject's id and the
 * sealed text); null when they cannot be opened (the person's key is gone). An event without a seal comes back
 * as it is.
 */
export async function withPersonalFieldsOpened<T extends EventType>(
  event: DecodedEvent<T>,
  open: (subjectId: string, sealed: string) => Promise<string | null>,
): Promise<DecodedEvent<T> | null> {
  const payload = event.payload as unknown as PersonalPayload;
  if (!payload.sealedPersonal) return event;
  const opened = await open(event.envelope.subjectId, payload.sealedPersonal);
  if (opened === null) return null;
  const fields = new Set(personalFieldsOf(event.type));
  const personal = Object.entries(JSON.parse(opened) as Record<string, unknown>).filter(
    ([field, value]) => fields.has(field) && isFieldValue(value),
  );
  return { ...event, payload: { ...event.payload, ...Object.fromEntries(personal), sealedPersonal: '' } };
}

const emptyOf = (value: unknown) => (typeof value === 'string' ? '' : typeof value === 'number' ? 0 : undefined);

/** What a sealed field can hold: text, a number, or a message of numbers (a check-in's ratings). */
const isFieldValue = (value: unknown) =>
  typeof value === 'string' ||
  typeof value === 'number' ||
  (typeof value === 'object' && value !== null && !Array.isArray(value));
