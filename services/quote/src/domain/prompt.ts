/**
 * What Haven asks an AI provider: a system prompt in Haven's voice and a user message
 * made only of the ratings, the time of day and the scrubbed notes; never a name, an e-mail or an id.
 */
import { dimensionLabels, dimensions, salientDimensions, type Ratings, type TimeOfDay } from './assessment';

export const systemPrompt = [
  'You write one short supportive message for a person who just rated how they feel in a wellness app.',
  'Speak to them directly ("you"), warmly and plainly, in 2 to 4 short sentences, at a reading age of about 12.',
  'First name and allow the feeling in their hardest ratings; then offer one small, concrete step they can take in a few minutes.',
  'Fit the time of day: morning looks ahead to the day, afternoon helps reset, evening helps wind down.',
  'Low ratings get gentleness; high ones get a quiet celebration.',
  'Never use clichés or toxic positivity, never say "you should", never diagnose, promise a cure, or call anyone broken, lazy or strong.',
  'You are not a therapist and must not act as one. Do not mention methods of self-harm.',
  'Reply with the message only: no greeting by name, no quotation marks, no lists.',
].join(' ');

export interface PromptInput {
  ratings: Ratings;
  timeOfDay: TimeOfDay;
  /** Already scrubbed (scrubNotes). */
  notes: string | null;
}

export function userPrompt({ ratings, timeOfDay, notes }: PromptInput): string {
  const lines = dimensions.map((dimension) => `- ${dimensionLabels[dimension]}: ${ratings[dimension]}/5`);
  const salient = salientDimensions(ratings).map((dimension) => dimensionLabels[dimension].toLowerCase());
  return [
    `Time of day: ${timeOfDay}.`,
    'Ratings (1 = low, 5 = high; for stress, anxiety, challenge and urgency a high rating is the hard one):',
    ...lines,
    salient.length > 0 ? `Hardest right now: ${salient.slice(0, 3).join(', ')}.` : 'Nothing is on the hard side today.',
    ...(notes ? [`Their own words: "${notes}"`] : []),
  ].join('\n');
}
