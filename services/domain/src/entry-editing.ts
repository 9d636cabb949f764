/**
 * How long after a check-in its writer may change it: long enough to correct a slip or add what they meant to write
 * that week; after that it is history, already summed up in the weekly summary and the insights. No imports: the web
 * app offers "Edit entry" by the same rule the quote service enforces.
 */
export const entryEditableDays = 7;

/** Whether an entry made at `createdAt` may still be changed at `now`. */
export const isEditable = (createdAt: Date, now: Date): boolean =>
  now.getTime() - createdAt.getTime() <= entryEditableDays * 24 * 60 * 60 * 1000;
