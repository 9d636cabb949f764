/** `subscribers-2026-11-23.csv`: the subscribers prefix and the date. */
export function exportFileName(now = new Date()): string {
  return `subscribers-${now.toISOString().slice(0, 10)}.csv`;
}
