/** Reading a process's Prometheus metrics (GET /metrics) in tests. */

/** Scrapes `url`; a scrape that does not answer 200 in Prometheus's text format within `timeoutMs` throws. */
export async function scrapeMetrics(url: string, timeoutMs = 15_000): Promise<string> {
  const reply = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`GET ${url} answered ${reply.status}: ${text.slice(0, 200)}`);
  const type = reply.headers.get('content-type') ?? '';
  if (!type.includes('text/plain')) throw new Error(`GET ${url} answered ${type}, not Prometheus's text format`);
  return text;
}

/** The values of a metric's samples whose labels include every given one (none when the series is unset). */
export function metricSamples(text: string, name: string, labels: Record<string, string> = {}): number[] {
  const values: number[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) values.push(Number(match[4]));
  }
  return values;
}

/** The sum of a metric's samples whose labels include every given one (0 when there are none). */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  return metricSamples(text, name, labels).reduce((sum, value) => sum + value, 0);
}
