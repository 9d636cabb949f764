import { timestampFromDate, type NewEvent } from '@haven/proto';
import type { Ratings } from '../domain/assessment';
import type { QuoteRecord } from '../model/quote';

type EntryOf = Pick<QuoteRecord, '_id' | 'userId' | 'checkInId' | 'createdAt'>;

/** What every event about an entry says of it: ids, when the check-in was made and its mood. */
function entryFacts(quote: EntryOf, mood: number) {
  return {
    userId: quote.userId,
    quoteId: quote._id,
    checkInId: quote.checkInId,
    createdAt: timestampFromDate(quote.createdAt),
    moodScore: mood,
  };
}

/** quote.generated: ids and numbers only (no notes, no quote text, no e-mail), for the weekly summary and privacy. */
export function quoteGeneratedEvent(
  quote: EntryOf & Pick<QuoteRecord, 'timeOfDay'>,
  ratings: Ratings,
  mood: number,
  correlationId: string,
): NewEvent<'quote.generated'> {
  return {
    type: 'quote.generated',
    producer: 'quote',
    subjectId: quote.userId,
    correlationId,
    payload: { ...entryFacts(quote, mood), ratings, timeOfDay: quote.timeOfDay },
  };
}

/** quote.entry_deleted: what the tallies built from quote.generated need to take the entry out again. */
export function entryDeletedEvent(
  quote: EntryOf,
  mood: number,
  correlationId: string,
): NewEvent<'quote.entry_deleted'> {
  return {
    type: 'quote.entry_deleted',
    producer: 'quote',
    subjectId: quote.userId,
    correlationId,
    payload: entryFacts(quote, mood),
  };
}

/** quote.entry_edited: the entry's new numbers and the mood the tallies counted before, so they can follow. */
export function entryEditedEvent(
  quote: EntryOf & Pick<QuoteRecord, 'timeOfDay'>,
  ratings: Ratings,
  mood: { previous: number; now: number },
  correlationId: string,
): NewEvent<'quote.entry_edited'> {
  return {
    type: 'quote.entry_edited',
    producer: 'quote',
    subjectId: quote.userId,
    correlationId,
    payload: { ...entryFacts(quote, mood.now), previousMoodScore: mood.previous, ratings, timeOfDay: quote.timeOfDay },
  };
}
