/** Delete one of the user's entries for good, with its toasts; every view that counted it asks the server again. */
import { useMutation } from '@apollo/client/react';
import { DeleteEntryDocument } from '../../graphql/operations.generated';
import { toast } from '../../ui/toastStore';
import { entryDeletion } from './checkinRules';
import { forgetAfterEntryDeleted } from './freshness';

export function useDeleteEntry() {
  const [mutate, { loading }] = useMutation(DeleteEntryDocument);
  /** True once the entry is gone; on a failure nothing changes. */
  const deleteEntry = async (quoteId: string) => {
    try {
      await mutate({ variables: { quoteId }, update: (cache) => forgetAfterEntryDeleted(cache, quoteId) });
      toast(entryDeletion.deletedToast);
      return true;
    } catch {
      toast(entryDeletion.failedToast);
      return false;
    }
  };
  return { deleteEntry, deleting: loading };
}
