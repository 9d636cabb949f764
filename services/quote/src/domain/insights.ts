/**
 * Insights from the user's own recent check-ins: "correlations and weekly summaries". Pure; the caller
 * passes a bounded window of check-ins (newest first), so the cost does not grow with the whole history.
 */
import { dimensionLabels, dimensions, type Dimension, type Ratings } from './assessment';
import { dayNumber, moodOf } from './progress';

export interface CheckInSample {
  ratings: Ratings;
  createdAt: Date;
}

export type InsightType = 'weekly_change' | 'sleep_mood' | 'weekly_summary';

export interface Insight {
  id: string;
  insightType: InsightType;
  insightText: string;
  createdAt: Date;
}

const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
const oneDecimal = (value: number): string => value.toFixed(1);

/** The window insights are computed from (two weeks of check-ins, bounded). */
export const insightWindowDays = 15;
export const insightSamplesMax = 300;

/** Smallest change worth naming, in rating points (a whole step on a 1–5 slider, averaged). */
export const notableChange = 0.5;

/**
 * Up to three insights, each computed from the check-ins it names:
 * - weekly_summary: how many check-ins in the last 7 days and their average mood;
 * - weekly_change: the dimension whose average moved most between the previous 7 days and the last 7
 *   (at least `notableChange`, both weeks with a check-in);
 * - sleep_mood: the average mood on check-ins with sleep rated 4–5 against those rated 1–2 (both present).
 */
export function insightsFrom(samples: CheckInSample[], now: Date, timeZone: string): Insight[] {
  const today = dayNumber(now, timeZone);
  // Each sample's local day once: working out a day in a time zone costs more than the rest of the rules.
  const ages = samples.map((sample) => today - dayNumber(sample.createdAt, timeZone));
  const thisWeek = samples.filter((_sample, index) => ages[index]! < 7);
  const lastWeek = samples.filter((_sample, index) => ages[index]! >= 7 && ages[index]! < 14);
  const insights: Insight[] = [];

  if (thisWeek.length > 0) {
    const mood = mean(thisWeek.map((sample) => moodOf(sample.ratings)));
    const count = thisWeek.length === 1 ? 'one check-in' : `${thisWeek.length} check-ins`;
    insights.push({
      id: `weekly_summary-${today}`,
      insightType: 'weekly_summary',
      insightText: `This week you made ${count}, with an average mood of ${oneDecimal(mood)} out of 5.`,
      createdAt: thisWeek[0]!.createdAt,
    });
  }

  if (thisWeek.length > 0 && lastWeek.length > 0) {
    let biggest: { dimension: Dimension; change: number } | null = null;
    for (const dimension of dimensions) {
      const change =
        mean(thisWeek.map((sample) => sample.ratings[dimension])) -
        mean(lastWeek.map((sample) => sample.ratings[dimension]));
      if (Math.abs(change) >= notableChange && (!biggest || Math.abs(change) > Math.abs(biggest.change))) {
        biggest = { dimension, change };
      }
    }
    if (biggest) {
      const direction = biggest.change > 0 ? 'rose' : 'fell';
      insights.push({
        id: `weekly_change-${today}-${biggest.dimension}`,
        insightType: 'weekly_change',
        insightText: `${dimensionLabels[biggest.dimension]} moved most this week: it ${direction} by ${oneDecimal(Math.abs(biggest.change))} compared with the week before.`,
        createdAt: thisWeek[0]!.createdAt,
      });
    }
  }

  const rested = samples.filter((sample) => sample.ratings.sleepQuality >= 4);
  const tired = samples.filter((sample) => sample.ratings.sleepQuality <= 2);
  if (rested.length > 0 && tired.length > 0) {
    const restedMood = mean(rested.map((sample) => moodOf(sample.ratings)));
    const tiredMood = mean(tired.map((sample) => moodOf(sample.ratings)));
    insights.push({
      id: `sleep_mood-${today}`,
      insightType: 'sleep_mood',
      insightText: `On check-ins after good sleep your mood averaged ${oneDecimal(restedMood)}; after poor sleep, ${oneDecimal(tiredMood)}.`,
      createdAt: samples[0]!.createdAt,
    });
  }
  return insights;
}
