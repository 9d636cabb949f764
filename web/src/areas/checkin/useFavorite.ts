/** Save / unsave a quote, refreshing the favourite list and counts (the quote updates by its id), with a toast for each outcome. */
import { useMutation } from '@apollo/client/react';
import { serverMessage } from '../../graphql/errors';
import { SetQuoteFavoriteDocument } from '../../graphql/operations.generated';
import { forgetAfterFavorite } from './freshness';
import { toast } from '../../ui/toastStore';

export function useFavorite() {
  const [mutate, { loading }] = useMutation(SetQuoteFavoriteDocument, {
    update: forgetAfterFavorite,
  });
  const setFavorite = async (id: string, isFavorite: boolean) => {
    try {
      await mutate({ variables: { id, isFavorite } });
      toast({ title: isFavorite ? 'Added to favorites' : 'Removed from favorites' });
      return true;
    } catch (error) {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to update favorite status.',
        variant: 'destructive',
      });
      return false;
    }
  };
  return { setFavorite, saving: loading };
}
