/** Check-ins, quotes and progress (the quote service). */
import { checkInDimensions } from '@haven/domain';
import {
  FavoriteQuotesDocument,
  GenerateQuoteDocument,
  RecentQuotesDocument,
  SetQuoteFavoriteDocument,
  UserAnalyticsDocument,
  UserStatsDocument,
} from './quote.generated';
import { pick, restRoute, signedIn, type RestRoute } from './types';

const assessmentFields = [...checkInDimensions, 'timeOfDayPreference', 'notes', 'country'];

/** A query-string number stays a string when it is not one, so GraphQL names the field in its 400. */
const numberOrRaw = (value: unknown) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);

export const quoteRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    path: '/api/user/stats',
    document: UserStatsDocument,
    reply: (data) => signedIn(data)?.stats ?? null,
  }),
  restRoute({
    method: 'POST',
    path: '/api/quotes/generate',
    document: GenerateQuoteDocument,
    // Every key of the contract, as sent (absent stays absent so the defaults apply; a wrong type is a 400);
    // the Idempotency-Key header, when sent (also empty), is the input's key, checked by the quote service.
    variables: (body, { header }) => ({
      input: {
        ...pick(body, assessmentFields),
        ...pick({ idempotencyKey: header('idempotency-key') }, ['idempotencyKey']),
      },
    }),
    reply: (data) => data.generateQuote,
  }),
  restRoute({
    method: 'GET',
    path: '/api/quotes/recent',
    document: RecentQuotesDocument,
    variables: (_body, { query }) => pick({ limit: numberOrRaw(query.limit), date: query.date }, ['limit', 'date']),
    reply: (data) => {
      const me = signedIn(data);
      return me ? { quotes: me.recentQuotes } : null;
    },
  }),
  restRoute({
    method: 'GET',
    path: '/api/quotes/favorites',
    document: FavoriteQuotesDocument,
    reply: (data) => {
      const me = signedIn(data);
      return me ? { quotes: me.favoriteQuotes } : null;
    },
  }),
  restRoute({
    method: 'PATCH',
    path: '/api/quotes/:id/favorite',
    document: SetQuoteFavoriteDocument,
    variables: (body, { params }) => ({ id: params.id, isFavorite: body.isFavorite }),
    reply: (data) => ({ quote: data.setQuoteFavorite }),
  }),
  restRoute({
    method: 'GET',
    path: '/api/user/analytics',
    document: UserAnalyticsDocument,
    reply: (data) => signedIn(data)?.analytics ?? null,
  }),
];
