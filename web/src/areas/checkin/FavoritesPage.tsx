/** /favorites: the quotes the user saved, each with a share action. */
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router-dom';
import { FavoriteQuotesDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { buttonClass } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { QuoteCard } from './QuoteCard';

export function FavoritesPage() {
  usePageTitle('Favorites');
  const { data, loading, error } = useQuery(FavoriteQuotesDocument, { fetchPolicy: 'cache-and-network' });
  const quotes = data?.me?.favoriteQuotes ?? [];
  return (
    <div className="page stack">
      <h1 className="page__title">Your Favorite Quotes</h1>
      {loading && !data && <p className="text-muted">Loading your favorites...</p>}
      {error && <p role="alert">We couldn&apos;t load your favorites just now. Try again in a moment.</p>}
      {!loading && !error && quotes.length === 0 && (
        <Card>
          <CardHeader>
            <CardTitle>No Favorites Yet</CardTitle>
            <CardDescription>Save a quote you like and it will wait for you here.</CardDescription>
          </CardHeader>
          <CardContent>
            <Link to="/" className={buttonClass({ block: true })}>
              Generate your first quote
            </Link>
          </CardContent>
        </Card>
      )}
      {quotes.map((quote) => (
        <QuoteCard key={quote.id} quote={quote} saveable={false} />
      ))}
    </div>
  );
}
