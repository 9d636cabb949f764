import type { Dimension, TimeOfDay } from '../assessment';

/**
 * Messages for one dimension rated on its hard side (low wellbeing, or high stress, anxiety, challenge or
 * urgency). `any` fits every time of day; the others fit their time (morning looks ahead, afternoon resets,
 * evening winds down). Each message names the feeling first, then offers one small step.
 */
export interface MessageGroup {
  dimension: Dimension;
  any: string[];
  morning: string[];
  afternoon: string[];
  evening: string[];
}

/** Messages for a check-in with nothing on the hard side: a quiet celebration, by time of day. */
export type SteadyMessages = Record<TimeOfDay, string[]>;
