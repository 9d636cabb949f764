/**
 * Check-ins kept on this device until a connection sends them: what is kept, what a server's answer removes, whose
 * they are, and the words the pages say about them. Pure, no I/O (checkInQueue.ts reads and writes the device).
 */
import { checkInDimensions } from '@haven/domain/src/check-in-rules';
import { isCrisis } from '@haven/domain/src/crisis-ratings';
import { errorCode, httpStatus, serverAnswered, serverMessage } from '../../graphql/errors';
import type { AssessmentInput } from '../../graphql/operations.generated';

/** One check-in waiting to be sent, with the idempotency key it was made with, so every resend stores it once. */
export interface WaitingCheckIn {
  /** The account it was made under: it is sent only while that account is signed in here. */
  userId: string;
  /** When it was made (ISO 8601), to name it on the page. */
  savedAt: string;
  input: AssessmentInput & { idempotencyKey: string };
}

/** Where the device keeps one account's waiting check-ins: one entry per account, never a shared list. */
export const waitingStoragePrefix = 'haven:check-ins-waiting:';
export const waitingStorageKey = (userId: string): string => `${waitingStoragePrefix}${userId}`;

const keyOf = (checkIn: WaitingCheckIn) => checkIn.input.idempotencyKey;

/** The list with one more check-in, oldest first; one already kept under the same key is not kept twice. */
export function withWaiting(list: readonly WaitingCheckIn[], checkIn: WaitingCheckIn): WaitingCheckIn[] {
  return list.some((kept) => keyOf(kept) === keyOf(checkIn)) ? [...list] : [...list, checkIn];
}

function isWaitingCheckIn(value: unknown, userId: string): value is WaitingCheckIn {
  if (typeof value !== 'object' || value === null) return false;
  const { userId: owner, savedAt, input } = value as Record<string, unknown>;
  if (owner !== userId || typeof savedAt !== 'string' || Number.isNaN(Date.parse(savedAt))) return false;
  if (typeof input !== 'object' || input === null) return false;
  const fields = input as Record<string, unknown>;
  return (
    typeof fields.idempotencyKey === 'string' &&
    fields.idempotencyKey !== '' &&
    checkInDimensions.every((dimension) => typeof fields[dimension] === 'number')
  );
}

/**
 * An account's waiting check-ins as the device kept them: only well-formed ones made under that account, each key
 * once. Anything unreadable is no check-in (storage edited by hand, or an older shape).
 */
export function readWaiting(raw: string | null, userId: string): WaitingCheckIn[] {
  let kept: unknown;
  try {
    kept = JSON.parse(raw ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(kept)) return [];
  return kept
    .filter((item): item is WaitingCheckIn => isWaitingCheckIn(item, userId))
    .reduce<WaitingCheckIn[]>(withWaiting, []);
}

/** What the server's answer to a sent check-in means for the one kept here. */
export type SendOutcome =
  | { kind: 'sent' }
  /** A definitive refusal: sending it again would be refused again. */
  | { kind: 'refused'; message: string }
  /** No answer, or one that a later try can change: it stays and goes again. */
  | { kind: 'kept' };

/** Codes a later try can change: rate limiting, nobody signed in (the same person signs in again), still being saved. */
const codesToTryAgain = new Set(['TOO_MANY_REQUESTS', 'UNAUTHENTICATED', 'CONFLICT']);
/** Codes that refuse the check-in itself: its answers, the person's access, a request the server cannot read. */
const codesRefusing = new Set([
  'BAD_USER_INPUT',
  'FORBIDDEN',
  'NOT_FOUND',
  'GRAPHQL_VALIDATION_FAILED',
  'GRAPHQL_PARSE_FAILED',
]);
const statusesToTryAgain = new Set([401, 408, 409, 429]);

/** What a failed send means: kept to go again, unless the server answered with a definitive refusal. */
export function outcomeOfFailure(error: unknown): SendOutcome {
  if (!serverAnswered(error)) return { kind: 'kept' };
  const code = errorCode(error);
  const status = httpStatus(error);
  const refused =
    code !== undefined
      ? codesRefusing.has(code) || (!codesToTryAgain.has(code) && status !== undefined && status >= 400 && status < 500)
      : status !== undefined && status >= 400 && status < 500 && !statusesToTryAgain.has(status);
  return refused
    ? { kind: 'refused', message: serverMessage(error) ?? waitingWords.refusedFallback }
    : { kind: 'kept' };
}

/** The list after the server's answer to one of them: removed once answered for good, kept otherwise. */
export function afterOutcome(list: readonly WaitingCheckIn[], key: string, outcome: SendOutcome): WaitingCheckIn[] {
  return outcome.kind === 'kept' ? [...list] : list.filter((checkIn) => keyOf(checkIn) !== key);
}

/** Whether any waiting check-in's ratings show crisis signals: its help shows at once, with no answer to wait for. */
export function waitingShowsCrisis(list: readonly WaitingCheckIn[]): boolean {
  return list.some(({ input }) =>
    isCrisis({
      urgencyOfNeed: input.urgencyOfNeed ?? 3,
      hopeForFuture: input.hopeForFuture ?? 3,
      supportSystemStrength: input.supportSystemStrength ?? 3,
    }),
  );
}

/** A waiting check-in's time as the page names it: "10:42". */
export const savedAtLabel = (checkIn: WaitingCheckIn, locale?: string): string =>
  new Date(checkIn.savedAt).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });

const checkIns = (count: number) => (count === 1 ? '1 check-in' : `${count} check-ins`);

/** The words about waiting check-ins: calm, and honest about where the answers are. */
export const waitingWords = {
  title: 'Saved on this device',
  description: (count: number) =>
    `${count === 1 ? 'Your check-in is' : `Your ${checkIns(count)} are`} saved on this device and will be sent ` +
    'when the connection is back. Your supportive message will show here then.',
  item: (time: string) => `Check-in from ${time}, waiting to be sent`,
  savedToast: {
    title: 'Saved on this device',
    description: 'Your check-in will be sent when the connection is back.',
  },
  notKept:
    "We couldn't keep that on this device. Your ratings are still here. Please try again when the connection is back.",
  sentToast: { title: 'Check-in sent', description: 'Your supportive message is ready.' },
  refusedTitle: 'A check-in could not be saved',
  refused: (time: string, message: string) =>
    `Your check-in from ${time} could not be saved: ${/[.!?]$/.test(message.trim()) ? message.trim() : `${message.trim()}.`} ` +
    'It is no longer kept on this device.',
  refusedFallback: 'Haven refused it.',
  signOutQuestion: (count: number) =>
    `${checkIns(count)} saved on this device ${count === 1 ? 'has' : 'have'} not been sent yet. Signing out ` +
    `removes ${count === 1 ? 'it' : 'them'} from this device. Sign out anyway?`,
} as const;
