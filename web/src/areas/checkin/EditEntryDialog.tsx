/**
 * Editing an entry on /progress: the check-in form's parts in a dialog, filled from the entry's kept answers.
 * Cancel changes nothing; Save sends only what changed. A refusal shows beside the form, which keeps every change.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { fieldErrors, serverMessage } from '../../graphql/errors';
import { PrivacySettingsDocument, type QuoteCardFragment } from '../../graphql/operations.generated';
import { useForm } from '../../lib/useForm';
import { Button } from '../../ui/Button';
import { useReturnFocus } from '../../ui/useReturnFocus';
import {
  DIMENSIONS,
  NotesBox,
  RATING_GROUPS,
  RatingSlider,
  TimeOfDayChoice,
  isTimeOfDay,
  ratingsFrom,
  type Ratings,
  type TimeOfDay,
} from './CheckInFields';
import { entryEditChanges, entryEditProblems, entryEditing } from './checkinRules';
import { useEditEntry, type EditedEntry } from './useEditEntry';

/** An entry its writer can edit: one with its 15 ratings. */
export type EditableEntry = QuoteCardFragment & { ratings: Ratings };

const ID_PREFIX = 'edit-';
const NOTES_ID = 'edit-entry-notes';
/** The fields the form shows a server's message beside. */
const FORM_FIELDS: readonly string[] = [...DIMENSIONS, 'timeOfDayPreference', 'notes'];

/** The form's answers, each under the name the server gives its refusal. */
type EntryForm = Ratings & { timeOfDayPreference: TimeOfDay; notes: string };

interface EditEntryDialogProps {
  /** The entry being edited; null keeps the dialog closed. */
  entry: EditableEntry | null;
  onClose: () => void;
  onSaved: (edited: EditedEntry) => void;
}

export function EditEntryDialog({ entry, onClose, onSaved }: EditEntryDialogProps) {
  const { editEntry, saving } = useEditEntry();
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={entry !== null} onOpenChange={(open) => !open && !saving && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content className="dialog__content dialog__content--wide card" {...returnFocus}>
          <Dialog.Title className="card__title">{entryEditing.title}</Dialog.Title>
          <Dialog.Description>{entryEditing.description}</Dialog.Description>
          {entry && <EditEntryForm key={entry.id} entry={entry} editEntry={editEntry} onSaved={onSaved} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

interface EditEntryFormProps {
  entry: EditableEntry;
  editEntry: ReturnType<typeof useEditEntry>['editEntry'];
  onSaved: (edited: EditedEntry) => void;
}

function EditEntryForm({ entry, editEntry, onSaved }: EditEntryFormProps) {
  const kept = {
    ratings: ratingsFrom(entry.ratings),
    timeOfDay: entry.timeOfDay,
    notes: entry.notes,
  };
  // What no field can show (the entry itself refused) goes above the buttons, inside the dialog, not in a toast.
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Notes kept off the server (Settings, Data & Privacy): no box, and the kept notes are left as they are.
  const notesKept = useQuery(PrivacySettingsDocument).data?.me?.privacySettings.keepNotes ?? true;

  const { values, errors, pending, set, onSubmit } = useForm<EntryForm>({
    initial: () => ({
      ...kept.ratings,
      timeOfDayPreference: isTimeOfDay(entry.timeOfDay) ? entry.timeOfDay : 'morning',
      notes: entry.notes ?? '',
    }),
    submit: async (answers) => {
      const changes = entryEditChanges(
        kept,
        { ratings: ratingsFrom(answers), timeOfDay: answers.timeOfDayPreference, notes: answers.notes },
        notesKept,
      );
      setProblem(null);
      setNotice(changes ? null : entryEditing.nothingChanged);
      if (changes) onSaved(await editEntry(entry.id, changes));
    },
    failed: (error) => {
      const problems = entryEditProblems(fieldErrors(error), FORM_FIELDS, serverMessage(error));
      setProblem(problems.form);
      return problems.fields;
    },
  });

  return (
    <form className="stack" noValidate onSubmit={onSubmit}>
      <div className="stack edit-entry__group">
        <p className="edit-entry__legend" aria-hidden="true">
          Time of day
        </p>
        <TimeOfDayChoice
          name="edit-timeOfDay"
          value={values.timeOfDayPreference}
          onChange={(time) => set('timeOfDayPreference', time)}
          error={errors.timeOfDayPreference}
        />
      </div>
      {RATING_GROUPS.map((group) => (
        <fieldset key={group.title} className="stack edit-entry__group">
          <legend className="edit-entry__legend">{group.title}</legend>
          {group.sliders.map(([key, label]) => (
            <RatingSlider
              key={key}
              idPrefix={ID_PREFIX}
              dimension={key}
              label={label}
              value={values[key]}
              onChange={(value) => set(key, value)}
              error={errors[key]}
            />
          ))}
        </fieldset>
      ))}
      <div className="stack edit-entry__group">
        <label htmlFor={NOTES_ID} className="edit-entry__legend">
          Notes (optional)
        </label>
        <NotesBox
          id={NOTES_ID}
          value={values.notes}
          onChange={(notes) => set('notes', notes)}
          notesKept={notesKept}
          error={errors.notes}
        />
      </div>
      {/* On the page before it says anything, so that what it says is read out. */}
      <p className="text-muted" role="status">
        {notice}
      </p>
      {problem && (
        <p className="field__error" role="alert">
          {problem}
        </p>
      )}
      <div className="button-row dialog__actions">
        <Dialog.Close asChild>
          <Button variant="outline" disabled={pending}>
            {entryEditing.cancelLabel}
          </Button>
        </Dialog.Close>
        <Button type="submit" loading={pending}>
          {entryEditing.saveLabel}
        </Button>
      </div>
    </form>
  );
}
