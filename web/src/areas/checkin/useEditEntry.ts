/**
 * Change one of the user's entries, with its toast; the entry updates in place from the answer, and every view
 * that worked something out from its mood asks the server again.
 */
import { useMutation } from '@apollo/client/react';
import { EditEntryDocument, type EditEntryMutation, type EntryEditInput } from '../../graphql/operations.generated';
import { countryForCheckIn } from '../../lib/country';
import { toast } from '../../ui/toastStore';
import { entryEditing } from './checkinRules';
import { forgetAfterEntryEdited } from './freshness';

export type EditedEntry = EditEntryMutation['editEntry'];

export function useEditEntry() {
  const [mutate, { loading }] = useMutation(EditEntryDocument, { update: forgetAfterEntryEdited });
  /** The edited entry (with the help to show first, when it now shows crisis signals); a failure throws, for the form. */
  const editEntry = async (quoteId: string, changes: EntryEditInput): Promise<EditedEntry> => {
    // A crisis reply lists this country's help; without one the server uses the time zone's.
    const { data } = await mutate({ variables: { quoteId, input: { ...changes, country: countryForCheckIn() } } });
    if (!data) throw new Error('editEntry answered without data');
    toast(entryEditing.savedToast);
    return data.editEntry;
  };
  return { editEntry, saving: loading };
}
