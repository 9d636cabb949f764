/**
 * The offline composer's library: Haven's own messages (written for this product, in Haven's voice), each
 * with a stable id, its dimension and its time of day.
 */
import type { Dimension, TimeOfDay } from '../assessment';
import { anxiety, confidence, focus, motivation, stress } from './emotional';
import { challenge, gratitude, urgency } from './context';
import { comfort, sleep } from './physical';
import { hope, progress, purpose } from './purpose';
import { connection, support } from './social';
import { steady } from './steady';
import type { MessageGroup } from './types';

export interface LibraryMessage {
  /** Stable across releases as long as messages are only appended: `<dimension>.<time>.<index>`. */
  id: string;
  /** The dimension it speaks to; "steady" for a check-in with nothing on the hard side. */
  dimension: Dimension | 'steady';
  /** "any" fits every time of day. */
  timeOfDay: TimeOfDay | 'any';
  text: string;
}

const groups: MessageGroup[] = [
  stress,
  confidence,
  focus,
  motivation,
  anxiety,
  connection,
  support,
  purpose,
  progress,
  hope,
  sleep,
  comfort,
  challenge,
  gratitude,
  urgency,
];

const times = ['any', 'morning', 'afternoon', 'evening'] as const;

export const library: LibraryMessage[] = [
  ...groups.flatMap((group) =>
    times.flatMap((timeOfDay) =>
      group[timeOfDay].map((text, index) => ({
        id: `${group.dimension}.${timeOfDay}.${index}`,
        dimension: group.dimension,
        timeOfDay,
        text,
      })),
    ),
  ),
  ...(['morning', 'afternoon', 'evening'] as const).flatMap((timeOfDay) =>
    steady[timeOfDay].map((text, index) => ({
      id: `steady.${timeOfDay}.${index}`,
      dimension: 'steady' as const,
      timeOfDay,
      text,
    })),
  ),
];
