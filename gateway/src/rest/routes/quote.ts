/** Check-ins, quotes and progress (the quote service). */
import { signedIn, type RestRoute, type Json } from './types';

export const quoteRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/user/stats',
    operation: 'query UserStats { me { stats { totalQuotes totalEntries favoriteQuotes } } }',
    reply: (data) => (signedIn(data)?.stats as Json | undefined) ?? null,
  },
];
