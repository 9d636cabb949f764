/**
 * Haven names people, entries and requests with random UUIDs (`crypto.randomUUID`): a value of any other form is
 * a mistake, never someone's id, and is refused before any lookup.
 */
const havenIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id as a caller may send it (either case). */
export function isHavenId(value: unknown): value is string {
  return typeof value === 'string' && havenIdPattern.test(value);
}

/** The consent cookie's visitor id, exactly as the compliance service mints it: a lower-case version-4 UUID. */
export function isVisitorId(value: unknown): value is string {
  return (
    typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(value)
  );
}
