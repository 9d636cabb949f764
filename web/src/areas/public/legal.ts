/** Facts the legal pages share. */
export const LEGAL_LAST_UPDATED = '28 January 2025';
/** Haven is not for children under this age (the spec's policy). */
export const MINIMUM_AGE = 13;
