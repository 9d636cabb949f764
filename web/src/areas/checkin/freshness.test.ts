import { InMemoryCache } from '@apollo/client';
import {
  AnalyticsDocument,
  CheckInDaysDocument,
  EditEntryDocument,
  FavoriteQuotesDocument,
  MeDocument,
  ProgressSummaryDocument,
  RecentQuotesDocument,
  YearInMoodsDocument,
  type QuoteCardFragment,
} from '../../graphql/operations.generated';
import { forgetAfterCheckIn, forgetAfterEntryDeleted, forgetAfterEntryEdited } from './freshness';

const threes = {
  stressLevel: 3,
  confidenceLevel: 3,
  focusClarity: 3,
  motivationLevel: 3,
  anxietyLevel: 3,
  connectionWithOthers: 3,
  supportSystemStrength: 3,
  senseOfPurpose: 3,
  progressTowardGoals: 3,
  hopeForFuture: 3,
  sleepQuality: 3,
  physicalComfort: 3,
  currentChallengeLevel: 3,
  gratitudeLevels: 3,
  urgencyOfNeed: 3,
};

const quote = (id: string, isFavorite: boolean): QuoteCardFragment & { __typename: 'Quote' } => ({
  __typename: 'Quote',
  id,
  text: `Quote ${id}.`,
  createdAt: '2026-03-01T12:00:00.000Z',
  isFavorite,
  score: 3,
  dotColour: 'yellow',
  timeOfDay: 'morning',
  notes: null,
  editedAt: null,
  ratings: threes,
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
    query: AnalyticsDocument,
    data: {
      me: {
        ...user,
        analytics: {
          totalQuotes: 2,
          favoriteQuotes: 1,
          totalEntries: 2,
          moodTrends: { averageMood: 3, colour: 'yellow', moodHistory: [3, 3], recentEntries: 2, trend: 'flat' },
          streaks: { currentStreak: 1, longestStreak: 1, totalQuotesGenerated: 2 },
          recentInsights: [],
        },
      },
    },
  });
  cache.writeQuery({
    query: CheckInDaysDocument,
    variables: { month: '2026-03' },
    data: { checkInDays: ['2026-03-01'] },
  });
  cache.writeQuery({
    query: YearInMoodsDocument,
    variables: { year: '2026' },
    data: { yearInMoods: [{ date: '2026-03-01', mood: 3, colour: 'yellow', entries: 2 }] },
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

  it("shows an edited entry's answer in every list holding it, and forgets what its mood was counted in", () => {
    const cache = visitedCache();
    const edited = {
      ...quote('deleted', true),
      score: 4.5,
      dotColour: 'green',
      timeOfDay: 'evening',
      notes: 'A calmer evening.',
      editedAt: '2026-03-02T09:00:00.000Z',
      ratings: { ...threes, stressLevel: 1 },
    };
    // The edit's answer, written as Apollo writes a mutation's result (with the __typename Apollo asks every answer
    // for, which the reply's fragment matches on), then what the mutation's update forgets.
    const reply = { __typename: 'GenerateQuotePayload', quote: edited, supportResources: null };
    cache.writeQuery({
      query: EditEntryDocument,
      variables: { quoteId: 'deleted', input: { stressLevel: 1 } },
      data: { editEntry: reply },
    });
    forgetAfterEntryEdited(cache);

    const lists = [
      cache.readQuery({ query: RecentQuotesDocument, variables: { limit: 50 } })?.me?.recentQuotes,
      cache.readQuery({ query: FavoriteQuotesDocument })?.me?.favoriteQuotes,
    ];
    for (const list of lists) {
      const shown = list?.find((entry) => entry.id === 'deleted');
      expect(shown).toMatchObject({ score: 4.5, timeOfDay: 'evening', notes: 'A calmer evening.' });
      expect(shown?.ratings?.stressLevel).toBe(1);
      expect(shown?.editedAt).toBe('2026-03-02T09:00:00.000Z');
    }
    expect(cache.readQuery({ query: ProgressSummaryDocument })).toBeNull();
    expect(cache.readQuery({ query: AnalyticsDocument })).toBeNull();
    expect(cache.readQuery({ query: YearInMoodsDocument, variables: { year: '2026' } })).toBeNull();
    // No day gains or loses a check-in, and who is signed in stays.
    expect(cache.readQuery({ query: CheckInDaysDocument, variables: { month: '2026-03' } })?.checkInDays).toEqual([
      '2026-03-01',
    ]);
    expect(cache.readQuery({ query: MeDocument })?.me?.id).toBe('user-1');
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
