export * from './check-in-rules';
export * from './crisis-ratings';
export * from './crisis-resources';
export * from './support-resources';
export * from './safety-plan';
export * from './entry-editing';
export * from './newsletter-limits';
export * from './field-messages';
