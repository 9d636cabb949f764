/**
 * The offline composer: picks a message from Haven's own library for the check-in's most salient ratings
 * and its time of day, never one of the user's last 20, and answers crisis signals (in the ratings or in the
 * person's own words) with people first. Pure: the caller passes the recent message ids and the random source.
 */
import { notTherapyLine, supportResourcesFor, type SupportResources } from '@haven/domain';
import { isCrisis, salientDimensions, type Dimension, type Ratings, type TimeOfDay } from './assessment';
import { recognisesCrisisInWords } from './crisis-words';
import { library, type LibraryMessage } from './library';

/** How many of a user's latest quotes a new one must differ from. */
export const noRepeatWindow = 20;
/** How many of the most salient dimensions the first choice is drawn from. */
export const focusDimensions = 3;
/** The id a crisis reply is stored with (not a library message, so it never blocks one). */
export const crisisMessageId = 'crisis';

export interface CompositionInput {
  ratings: Ratings;
  timeOfDay: TimeOfDay;
  /** The check-in's notes as the person wrote them; read for crisis signals only. */
  notes?: string | null;
  /** Message ids of the user's latest quotes, newest first (only the first `noRepeatWindow` count). */
  recentMessageIds: readonly string[];
  country?: string | null;
}

export interface Composition {
  text: string;
  messageId: string;
  crisis: boolean;
}

const fitsTime = (message: LibraryMessage, timeOfDay: TimeOfDay) =>
  message.timeOfDay === 'any' || message.timeOfDay === timeOfDay;

/**
 * Candidates, widest last: (1) the three most salient dimensions at this time of day, (2) every salient
 * dimension at any time, (3) for a check-in with nothing on the hard side, the steady messages of this
 * time of day, (4) anything not used recently, (5) anything.
 */
export function candidateTiers(ratings: Ratings, timeOfDay: TimeOfDay): LibraryMessage[][] {
  const salient = salientDimensions(ratings);
  const inDimensions = (set: readonly Dimension[]) => (message: LibraryMessage) =>
    (set as readonly string[]).includes(message.dimension);
  if (salient.length === 0) {
    return [
      library.filter((message) => message.dimension === 'steady' && message.timeOfDay === timeOfDay),
      library.filter((message) => message.dimension === 'steady'),
      library,
    ];
  }
  const top = salient.slice(0, focusDimensions);
  return [
    library.filter((message) => inDimensions(top)(message) && fitsTime(message, timeOfDay)),
    library.filter(inDimensions(salient)),
    library.filter((message) => message.dimension !== 'steady'),
  ];
}

/** The reply's opening when crisis signals show: hope and help-seeking, the resources, what Haven is. */
export function crisisText(resources: SupportResources): string {
  const lines = resources.resources.map((resource) => `${resource.name}: ${resource.action}.`);
  return [
    'You do not have to go through this alone, and someone can talk with you right now.',
    ...lines,
    resources.emergency,
    notTherapyLine,
    'Reaching out is a strong and sensible step. People do get through moments like this, and help works.',
  ].join('\n');
}

/** The one rule for "this check-in shows crisis": the rating patterns, or crisis in the person's own words. */
export function showsCrisis(checkIn: Pick<CompositionInput, 'ratings' | 'notes'>): boolean {
  return isCrisis(checkIn.ratings) || recognisesCrisisInWords(checkIn.notes);
}

export function compose(input: CompositionInput, random: () => number = Math.random): Composition {
  if (showsCrisis(input)) {
    return { text: crisisText(supportResourcesFor(input.country)), messageId: crisisMessageId, crisis: true };
  }
  const recent = new Set(input.recentMessageIds.slice(0, noRepeatWindow));
  const tiers = candidateTiers(input.ratings, input.timeOfDay);
  for (const tier of tiers) {
    const fresh = tier.filter((message) => !recent.has(message.id));
    if (fresh.length > 0) {
      const message = fresh[Math.floor(random() * fresh.length)]!;
      return { text: message.text, messageId: message.id, crisis: false };
    }
  }
  // Unreachable while the library has more than `noRepeatWindow` messages; kept total for safety.
  const message = library[Math.floor(random() * library.length)]!;
  return { text: message.text, messageId: message.id, crisis: false };
}
