/** The landing page's words, kept apart from its layout. */
import { BRAND } from '../../brand';

/** The loader: five bouncing dots for 1.5 s. */
export const LANDING_LOADER_MS = 1500;

export interface Point {
  title: string;
  text: string;
}

export const WHAT_IT_IS: readonly Point[] = [
  {
    title: 'A one-minute check-in',
    text: 'Rate how you feel on 15 everyday dimensions, from stress and focus to sleep and gratitude.',
  },
  {
    title: 'A message written for this moment',
    text: 'Get a short, supportive message shaped by your ratings and the time of day, not a random quote.',
  },
  {
    title: 'Space to look back',
    text: 'See your check-ins by date, your average mood and how your weeks change over time.',
  },
  {
    title: 'Words worth keeping',
    text: 'Save the messages that help to your favourites, and share one with a friend when you like.',
  },
  {
    title: 'Private by design',
    text: 'Your name and e-mail never go to the AI provider, your data is never sold, and you can export or delete it.',
  },
];

export const HOW_IT_WORKS: readonly Point[] = [
  {
    title: 'Daily Check-ins',
    text: 'Move 15 sliders from 1 to 5 and pick morning, afternoon or evening. It takes about a minute.',
  },
  {
    title: 'Instant Feedback',
    text: `${BRAND.name} answers right away with a message that speaks to what you rated, gently and plainly.`,
  },
  {
    title: 'Gentle Guidance',
    text: 'Each message offers one small step you can take in a few minutes: a glass of water, three slow breaths, a short walk.',
  },
  {
    title: 'Track Patterns',
    text: 'Your history shows your mood over days and weeks, so you can notice what lifts you and what weighs on you.',
  },
];

export const WHY_CHOOSE: readonly Point[] = [
  {
    title: 'Made for real days',
    text: 'Good days get a quiet celebration; hard days get kindness, never a lecture or forced cheer.',
  },
  {
    title: 'Personal, not generic',
    text: 'Messages respond to your own ratings and time of day instead of repeating a list of sayings.',
  },
  {
    title: 'No guilt, no pressure',
    text: 'Missed a day? Welcome back. Streaks are there for you to notice, never to push you.',
  },
  {
    title: 'Your data stays yours',
    text: 'No selling, no personal details to the AI provider, and export or deletion whenever you choose.',
  },
  {
    title: 'Anywhere you are',
    text: 'Works in any modern browser on phone, tablet or computer, and installs like an app. Light and dark themes.',
  },
];

export const PERFECT_FOR: readonly string[] = [
  'Anyone who wants a little more self-awareness each day',
  'People building a calm daily habit of checking in with themselves',
  'Busy minds that need a moment to pause and reset',
  'Anyone who finds journaling hard to start',
  'People who like to see their patterns over time',
];
