import type { GenerateQuotePayload, Quote } from './types.generated';

/**
 * A quote as the resolvers pass it on: what the schema shows, with whose it is and its check-in, which the
 * `notes` and `ratings` fields read (for the writer alone).
 */
export type QuoteView = Omit<Quote, 'notes' | 'ratings'> & { userId: string; checkInId: string };

/** A check-in's reply as the resolvers pass it on. */
export type QuoteReply = Omit<GenerateQuotePayload, 'quote'> & { quote: QuoteView };
