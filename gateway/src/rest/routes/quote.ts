/** Check-ins, quotes and progress (the quote service). */
import { checkInDimensions } from '@haven/platform';
import { pick, signedIn, type RestRoute, type Json } from './types';

const quoteFields =
  'id text createdAt isFavorite timeOfDay emotionalState { stressLevel confidenceLevel motivationLevel anxietyLevel hopeForFuture gratitudeLevels focusClarity senseOfPurpose }';

const assessmentFields = [...checkInDimensions, 'timeOfDayPreference', 'notes', 'country'];

/** A query-string number stays a string when it is not one, so GraphQL names the field in its 400. */
const numberOrRaw = (value: unknown) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);

export const quoteRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/user/stats',
    operation: 'query UserStats { me { stats { totalQuotes totalEntries favoriteQuotes } } }',
    reply: (data) => (signedIn(data)?.stats as Json | undefined) ?? null,
  },
  {
    method: 'POST',
    path: '/api/quotes/generate',
    operation: `mutation GenerateQuote($input: AssessmentInput!) { generateQuote(input: $input) { quote { ${quoteFields} } supportResources { region place emergency resources { name action href } } } }`,
    // Every key of the contract, as sent (absent stays absent so the defaults apply; a wrong type is a 400);
    // the Idempotency-Key header, when sent (also empty), is the input's key, checked by the quote service.
    variables: (body, { header }) => ({
      input: {
        ...pick(body, assessmentFields),
        ...pick({ idempotencyKey: header('idempotency-key') }, ['idempotencyKey']),
      },
    }),
    reply: (data) => data.generateQuote as Json,
  },
  {
    method: 'GET',
    path: '/api/quotes/recent',
    operation: `query RecentQuotes($limit: Int, $date: String) { me { recentQuotes(limit: $limit, date: $date) { ${quoteFields} } } }`,
    variables: (_body, { query }) => pick({ limit: numberOrRaw(query.limit), date: query.date }, ['limit', 'date']),
    reply: (data) => {
      const me = signedIn(data);
      return me ? { quotes: me.recentQuotes } : null;
    },
  },
  {
    method: 'GET',
    path: '/api/quotes/favorites',
    operation: `query FavoriteQuotes { me { favoriteQuotes { ${quoteFields} } } }`,
    reply: (data) => {
      const me = signedIn(data);
      return me ? { quotes: me.favoriteQuotes } : null;
    },
  },
  {
    method: 'PATCH',
    path: '/api/quotes/:id/favorite',
    operation: `mutation SetQuoteFavorite($id: ID!, $isFavorite: Boolean!) { setQuoteFavorite(id: $id, isFavorite: $isFavorite) { ${quoteFields} } }`,
    variables: (body, { params }) => ({ id: params.id, isFavorite: body.isFavorite }),
    reply: (data) => ({ quote: data.setQuoteFavorite }),
  },
  {
    method: 'GET',
    path: '/api/user/analytics',
    operation: `query UserAnalytics { me { analytics {
      totalQuotes favoriteQuotes totalEntries
      moodTrends { averageMood moodHistory recentEntries trend }
      streaks { currentStreak longestStreak totalQuotesGenerated }
      recentInsights { id insightType insightText createdAt }
    } } }`,
    reply: (data) => (signedIn(data)?.analytics as Json | undefined) ?? null,
  },
];
