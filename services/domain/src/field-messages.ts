/**
 * Messages beside a form's field that the server gives and the web app's own check repeats, stated once so the
 * person reads the same words whichever of the two notices first. No imports: the web app bundles this file as it is.
 */

/** An e-mail address that is not one (a missing "@", no domain, a space inside). */
export const invalidEmailMessage = 'Email must be a valid email address';
