/** /analytics ("Your Wellness Journey"): totals, mood trend (at most 10 bars), streaks and insights. */
import { useQuery } from '@apollo/client/react';
import { AnalyticsDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/Card';
import { Spinner } from '../../ui/Spinner';
import { YearView } from './YearView';

const MAX_BARS = 10;
const trendWords: Record<string, string> = { up: 'Trending up', down: 'Trending down', flat: 'Holding steady' };
const trendColours: Record<string, string> = { up: 'green', down: 'red', flat: 'yellow' };

export function AnalyticsPage() {
  usePageTitle('Analytics');
  const { data, loading, error } = useQuery(AnalyticsDocument, { fetchPolicy: 'cache-and-network' });
  const analytics = data?.me?.analytics;
  return (
    <div className="page stack">
      <h1 className="page__title">Your Wellness Journey</h1>
      {loading && !analytics && <Spinner label="Loading your analytics" />}
      {error && !analytics && <p role="alert">Unable to load analytics data. Please try again later.</p>}
      {analytics && (
        <>
          <div className="tiles">
            {[
              ['Quotes', analytics.totalQuotes, 'total-quotes'],
              ['Favorite Quotes', analytics.favoriteQuotes, 'favorite-quotes'],
              ['Entries', analytics.totalEntries, 'entries'],
            ].map(([label, value, id]) => (
              <Card key={label} className="tile">
                <CardContent>
                  <p className="tile__value" data-testid={`analytics-${id}`}>
                    {value}
                  </p>
                  <p className="tile__label">{label}</p>
                </CardContent>
              </Card>
            ))}
          </div>

          <Card>
            <CardHeader>
              <CardTitle>Mood Trends</CardTitle>
            </CardHeader>
            <CardContent className="stack">
              <p>
                Average mood{' '}
                <strong className={`mood mood--${analytics.moodTrends.colour}`} data-testid="analytics-average">
                  {analytics.moodTrends.averageMood.toFixed(1)}
                </strong>{' '}
                / 5
              </p>
              {analytics.moodTrends.moodHistory.length === 0 ? (
                <p className="text-muted">Your mood history starts with your first check-in.</p>
              ) : (
                <div className="mood-chart" role="img" aria-label="Mood of your latest check-ins, newest first">
                  {analytics.moodTrends.moodHistory.slice(0, MAX_BARS).map((mood, index) => (
                    <span key={index} className="mood-chart__bar" style={{ height: `${(mood / 5) * 100}%` }} />
                  ))}
                </div>
              )}
              <p className={`trend trend--${trendColours[analytics.moodTrends.trend] ?? 'yellow'}`}>
                {trendWords[analytics.moodTrends.trend] ?? 'Holding steady'}
              </p>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Streaks</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="stat-list">
                <dt>Current</dt>
                <dd data-testid="analytics-current-streak">{analytics.streaks.currentStreak}</dd>
                <dt>Longest</dt>
                <dd>{analytics.streaks.longestStreak}</dd>
                <dt>Quotes generated</dt>
                <dd>{analytics.streaks.totalQuotesGenerated}</dd>
              </dl>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Recent Insights</CardTitle>
            </CardHeader>
            <CardContent>
              {analytics.recentInsights.length === 0 ? (
                <p className="text-muted">Insights appear after a few check-ins.</p>
              ) : (
                <ul className="insights">
                  {analytics.recentInsights.map((insight) => (
                    <li key={insight.id}>{insight.insightText}</li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>

          <YearView />
        </>
      )}
    </div>
  );
}
