/** A quote with Share and Save/Saved (the check-in result) or Share only (favourites). */
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardFooter } from '../../ui/Card';
import { shareQuote } from './share';
import { useFavorite } from './useFavorite';

export function QuoteCard({
  quote,
  saveable = true,
}: {
  quote: { id: string; text: string; isFavorite: boolean };
  saveable?: boolean;
}) {
  const { setFavorite, saving } = useFavorite();
  const [isFavorite, setIsFavorite] = useState(quote.isFavorite);
  const toggle = async () => {
    if (await setFavorite(quote.id, !isFavorite)) setIsFavorite(!isFavorite);
  };
  return (
    <Card className="quote-card">
      <CardContent>
        <blockquote className="quote-card__text">{quote.text}</blockquote>
      </CardContent>
      <CardFooter className="quote-card__actions">
        <Button variant="outline" size="sm" onClick={() => void shareQuote(quote.text)}>
          Share
        </Button>
        {saveable && (
          <Button
            variant={isFavorite ? 'secondary' : 'outline'}
            size="sm"
            disabled={saving}
            aria-pressed={isFavorite}
            onClick={() => void toggle()}
          >
            {isFavorite ? 'Saved' : 'Save'}
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}
