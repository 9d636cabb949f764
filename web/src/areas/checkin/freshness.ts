/**
 * What a change makes stale in the cache. Queries stay cached until changed (cache-first), and a page that is not
 * on screen is not refetched with a mutation's `refetchQueries`: its answer is dropped from the cache instead, so
 * the page asks the server again when it next shows (an open page's query asks at once).
 */
import type { ApolloCache } from '@apollo/client';
import { MeDocument } from '../../graphql/operations.generated';

/** The signed-in user's fields a check-in changes: Home's recent quotes, Settings' counts, progress, analytics. */
const changedByCheckIn = ['recentQuotes', 'stats', 'progress', 'analytics'] as const;
/** A favourite changes the Favorites list and the favourite counts (the quote itself updates by its id). */
const changedByFavorite = ['favoriteQuotes', 'stats', 'analytics'] as const;
/** Deleting an entry takes back its check-in, and its favourite when it was one. */
const changedByEntryDeletion = [...new Set([...changedByCheckIn, ...changedByFavorite])];
/**
 * Editing an entry changes its mood, so the averages and the mood history; the lists that show it hold it by its
 * id and update with the edit's answer, and no count changes.
 */
const changedByEntryEdit = ['progress', 'analytics'] as const;

function forgetUserFields(cache: ApolloCache, fields: readonly string[]): void {
  const me = cache.readQuery({ query: MeDocument })?.me;
  if (!me) return;
  const id = cache.identify({ __typename: 'User', id: me.id });
  for (const fieldName of fields) cache.evict({ id, fieldName });
}

/** The calendar's marks and the year view, asked for by day rather than through the user. */
function forgetJournalDays(cache: ApolloCache): void {
  cache.evict({ id: 'ROOT_QUERY', fieldName: 'checkInDays' });
  cache.evict({ id: 'ROOT_QUERY', fieldName: 'yearInMoods' });
}

/** After a check-in: every view of the journal, the calendar's marks and the year view included. */
export function forgetAfterCheckIn(cache: ApolloCache): void {
  forgetUserFields(cache, changedByCheckIn);
  forgetJournalDays(cache);
  cache.gc();
}

/** After an entry is deleted: the quote itself, and every view that counted it. */
export function forgetAfterEntryDeleted(cache: ApolloCache, quoteId: string): void {
  cache.evict({ id: cache.identify({ __typename: 'Quote', id: quoteId }) });
  forgetUserFields(cache, changedByEntryDeletion);
  forgetJournalDays(cache);
  cache.gc();
}

/**
 * After an entry is edited: the views that worked something out from its mood, the year view's day among them.
 * The quote itself is already the edit's answer in the cache, so every list showing it shows the change.
 */
export function forgetAfterEntryEdited(cache: ApolloCache): void {
  forgetUserFields(cache, changedByEntryEdit);
  cache.evict({ id: 'ROOT_QUERY', fieldName: 'yearInMoods' });
  cache.gc();
}

/** After a favourite is saved or removed. */
export function forgetAfterFavorite(cache: ApolloCache): void {
  forgetUserFields(cache, changedByFavorite);
  cache.gc();
}
