/** The quote service's test support: the labelled notes the scrub is measured on. Import from here. */
export { harmlessNotes, personalNotes } from './scrub-set';
