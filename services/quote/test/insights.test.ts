import { dimensions, type Ratings } from '../src/domain/assessment';
import { insightsFrom } from '../src/domain/insights';

const calm = (overrides: Partial<Ratings> = {}): Ratings =>
  ({ ...Object.fromEntries(dimensions.map((d) => [d, 3])), ...overrides }) as Ratings;
const now = new Date('2026-11-25T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);

describe('insightsFrom', () => {
  it('has nothing to say without check-ins', () => {
    expect(insightsFrom([], now, 'UTC')).toEqual([]);
  });

  it('summarises the week, names the dimension that moved most, and relates sleep to mood', () => {
    const samples = [
      // this week: sleep 5, mood of all-3s with gratitude 5 → (3+3+3+3+3+5)/6 = 3.333
      { ratings: calm({ sleepQuality: 5, gratitudeLevels: 5 }), createdAt: daysAgo(0) },
      { ratings: calm({ sleepQuality: 4, gratitudeLevels: 5 }), createdAt: daysAgo(2) },
      // last week: sleep 1 and 2, mood 3
      { ratings: calm({ sleepQuality: 1 }), createdAt: daysAgo(8) },
      { ratings: calm({ sleepQuality: 2 }), createdAt: daysAgo(9) },
    ];
    const insights = insightsFrom(samples, now, 'UTC');
    expect(insights.map((insight) => insight.insightText)).toEqual([
      'This week you made 2 check-ins, with an average mood of 3.3 out of 5.',
      // sleep: 4.5 this week against 1.5 last week (+3.0); gratitude +2.0
      'Sleep quality moved most this week: it rose by 3.0 compared with the week before.',
      'On check-ins after good sleep your mood averaged 3.3; after poor sleep, 3.0.',
    ]);
    expect(insights.map((insight) => insight.insightType)).toEqual(['weekly_summary', 'weekly_change', 'sleep_mood']);
  });

  it('names no change smaller than half a point', () => {
    const samples = [
      { ratings: calm({ focusClarity: 4 }), createdAt: daysAgo(1) },
      { ratings: calm({ focusClarity: 3 }), createdAt: daysAgo(1) },
      { ratings: calm({ focusClarity: 3 }), createdAt: daysAgo(2) },
      { ratings: calm(), createdAt: daysAgo(10) }, // focus 3.33 against 3: +0.33
    ];
    expect(insightsFrom(samples, now, 'UTC').map((insight) => insight.insightType)).toEqual(['weekly_summary']);
  });
});
