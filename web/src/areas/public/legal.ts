/** Facts the legal pages share. */
export const LEGAL_LAST_UPDATED = '28 January 2025';
/** Haven is not for children under this age (the Terms and the Privacy Policy say so). */
export const MINIMUM_AGE = 13;
