import { InMemoryCache } from '@apollo/client';
import {
  CheckInDaysDocument,
  FavoriteQuotesDocument,
  MeDocument,
  ProgressSummaryDocument,
  RecentQuotesDocument,
  type QuoteCardFragment,
} from '../../graphql/operations.generated';
import { forgetAfterCheckIn, forgetAfterEntryDeleted } from './freshness';

const quote = (id: string, isFavorite: boolean): QuoteCardFragment & { __typename: 'Quote' } => ({
  __typename: 'Quote',
  id,
  text: `Quote ${id}.`,
  createdAt: '2026-03-01T12:00:00.000Z',
  isFavorite,
  score: 3,
  dotColour: 'yellow',
  notes: null,
  emotionalState: {
    stressLevel: 3,
    confidenceLevel: 3,
    motivationLevel: 3,
    anxietyLevel: 3,
    hopeForFuture: 3,
    gratitudeLevels: 3,
    focusClarity: 3,
    senseOfPurpose: 3,
  },
});

/** A cache as the app leaves it after visiting Home, Favorites, Progress and the calendar. */
function visitedCache(): InMemoryCache {
  const cache = new InMemoryCache();
  const user = { __typename: 'User' as const, id: 'user-1' };
  cache.writeQuery({
    query: MeDocument,
    data: {
      me: {
        ...user,
        email: 'a@example.com',
        firstName: null,
        lastName: null,
        profileImageUrl: null,
        emailVerified: true,
        isAdmin: false,
        timeZone: 'UTC',
        createdAt: '2026-01-01T00:00:00.000Z',
      },
    },
  });
  cache.writeQuery({
    query: RecentQuotesDocument,
    variables: { limit: 50 },
    data: { me: { ...user, recentQuotes: [quote('kept', false), quote('deleted', true)] } },
  });
  cache.writeQuery({
    query: FavoriteQuotesDocument,
    data: { me: { ...user, favoriteQuotes: [quote('deleted', true)] } },
  });
  cache.writeQuery({
    query: ProgressSummaryDocument,
    data: {
      me: {
        ...user,
        progress: { weeklyGoal: 29, totalEntries: 2, averageMood: 3, dayStreak: 1 },
      },
    },
  });
  cache.writeQuery({
    query: CheckInDaysDocument,
    variables: { month: '2026-03' },
    data: { checkInDays: ['2026-03-01'] },
  });
  return cache;
}

describe('what a change makes stale in the cache', () => {
  it('forgets a deleted entry and every view that counted it, keeping who is signed in', () => {
    const cache = visitedCache();
    forgetAfterEntryDeleted(cache, 'deleted');
    const kept = cache.extract();
    expect(kept['Quote:deleted']).toBeUndefined();
    expect(Object.keys(kept['User:user-1'] ?? {}).filter((field) => /Quotes|progress/.test(field))).toEqual([]);
    expect(Object.keys(kept.ROOT_QUERY ?? {}).some((field) => field.startsWith('checkInDays'))).toBe(false);
    expect(cache.readQuery({ query: MeDocument })?.me?.id).toBe('user-1');
    expect(cache.readQuery({ query: FavoriteQuotesDocument })).toBeNull();
    expect(cache.readQuery({ query: ProgressSummaryDocument })).toBeNull();
  });

  it('leaves the favourites alone after a check-in', () => {
    const cache = visitedCache();
    forgetAfterCheckIn(cache);
    expect(cache.readQuery({ query: RecentQuotesDocument, variables: { limit: 50 } })).toBeNull();
    expect(cache.readQuery({ query: CheckInDaysDocument, variables: { month: '2026-03' } })).toBeNull();
    expect(cache.readQuery({ query: FavoriteQuotesDocument })?.me?.favoriteQuotes.map((q) => q.id)).toEqual([
      'deleted',
    ]);
  });
});
