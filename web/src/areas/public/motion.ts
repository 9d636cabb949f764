/** Whether the visitor asked for less motion (no loader, no fade-ins). Safe where matchMedia is missing. */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}
