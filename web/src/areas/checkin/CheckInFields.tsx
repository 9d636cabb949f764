/**
 * The parts of the check-in form, shared by /sliders and by editing an entry on /progress: the 15 ratings in their
 * groups, the time of day and the notes box. Each part shows a server's message about its field under it.
 */
import type { ReactNode } from 'react';
import { checkInDimensions, checkInDimensionTable, type CheckInDimension } from '@haven/domain/src/check-in-rules';
import { NOTES_OFF_MESSAGE } from '../privacy/privacyRules';
import { timeOfDayLabel } from './checkinRules';

export type Dimension = CheckInDimension;

export type Ratings = Record<Dimension, number>;

/** The 15 ratings and how people read them, in the groups /sliders shows as cards, in the payload's order. */
export const RATING_GROUPS: Array<{ title: string; sliders: Array<[Dimension, string]> }> = [];
for (const { name, label, group } of checkInDimensionTable) {
  const last = RATING_GROUPS.at(-1);
  if (last?.title === group) last.sliders.push([name, label]);
  else RATING_GROUPS.push({ title: group, sliders: [[name, label]] });
}

export const DIMENSIONS: readonly Dimension[] = checkInDimensions;

/** The ratings of a kept entry, by the one list (the cache's copy also carries its __typename). */
export const ratingsFrom = (kept: Ratings): Ratings =>
  Object.fromEntries(DIMENSIONS.map((key) => [key, kept[key]])) as Ratings;

export const TIMES_OF_DAY = ['morning', 'afternoon', 'evening'] as const;
export type TimeOfDay = (typeof TIMES_OF_DAY)[number];

export const isTimeOfDay = (value: string): value is TimeOfDay => (TIMES_OF_DAY as readonly string[]).includes(value);

/** As the server takes them. */
export const NOTES_MAX = 1000;

/** A server's message about one field, announced with the control it names. */
function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="field__error">
      {message}
    </p>
  ) : null;
}

export function TimeOfDayChoice({
  value,
  onChange,
  name = 'timeOfDay',
  error,
}: {
  value: TimeOfDay;
  onChange: (time: TimeOfDay) => void;
  /** Unique on the page: the radio buttons' group. */
  name?: string;
  error?: string;
}) {
  const errorId = `${name}-error`;
  return (
    <>
      <div
        className="segmented"
        role="radiogroup"
        aria-label="Time of day"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      >
        {TIMES_OF_DAY.map((time) => (
          <label key={time} className={`segmented__option${time === value ? ' segmented__option--on' : ''}`}>
            <input type="radio" name={name} value={time} checked={time === value} onChange={() => onChange(time)} />
            {timeOfDayLabel(time)}
          </label>
        ))}
      </div>
      <FieldError id={errorId} message={error} />
    </>
  );
}

export function RatingSlider({
  dimension,
  label,
  value,
  onChange,
  idPrefix = '',
  error,
}: {
  dimension: Dimension;
  label: string;
  value: number;
  onChange: (value: number) => void;
  /** Keeps the ids unique when two forms could share a page. */
  idPrefix?: string;
  error?: string;
}) {
  const id = `${idPrefix}slider-${dimension}`;
  return (
    <div className="slider">
      <div className="slider__top">
        <label htmlFor={id}>{label}</label>
        <span className="slider__value" data-testid={`${idPrefix}value-${dimension}`}>
          {value}/5
        </span>
      </div>
      <input
        id={id}
        name={dimension}
        type="range"
        min={1}
        max={5}
        step={1}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(Number(event.target.value))}
      />
      <div className="slider__ends" aria-hidden="true">
        <span>Low</span>
        <span>High</span>
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** The notes box, or, when the person keeps no notes, what that means; its label is the caller's. */
export function NotesBox({
  id,
  value,
  onChange,
  notesKept,
  error,
}: {
  id: string;
  value: string;
  onChange: (notes: string) => void;
  notesKept: boolean;
  error?: string;
}): ReactNode {
  if (!notesKept) {
    return (
      <p id={id} className="text-muted" role="note">
        {NOTES_OFF_MESSAGE}
      </p>
    );
  }
  return (
    <>
      <textarea
        id={id}
        className="input textarea"
        rows={3}
        maxLength={NOTES_MAX}
        value={value}
        placeholder="Anything on your mind? This stays private."
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <FieldError id={`${id}-error`} message={error} />
    </>
  );
}
