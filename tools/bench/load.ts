/**
 * The bench's load: one target at a time with autocannon, keeping each 2xx response's own timing. Ctrl-C stops
 * the load in progress (stopLoadInProgress), so the run unwinds through its clean-up.
 */
import autocannon from 'autocannon';
import type { TargetKey } from './report';

export interface Target {
  key: TargetKey;
  label: string;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadRun {
  result: autocannon.Result;
  latenciesMs: number[];
  wrongBodies: number;
  wrongBodySample: string | null;
  errorSample: string | null;
}

let stopLoad: (() => void) | null = null;

/** Ends the load under way, if any (its run resolves with what it measured so far). */
export function stopLoadInProgress(): void {
  stopLoad?.();
}

/** One request before any load, so a broken target fails with its answer rather than a count. */
export async function checkTarget(target: Target, isRight: (body: string) => boolean): Promise<void> {
  const response = await fetch(target.url, {
    method: target.method,
    headers: target.headers,
    ...(target.body === undefined ? {} : { body: target.body }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  if (response.status !== 200 || !isRight(text)) {
    throw new Error(
      `${target.label}: ${target.method} ${target.url} answered ${response.status}: ${text.slice(0, 500)}`,
    );
  }
}

export function load(
  target: Target,
  connections: number,
  durationS: number,
  isRight: (body: string) => boolean,
): Promise<LoadRun> {
  return new Promise((resolveRun, rejectRun) => {
    const latenciesMs: number[] = [];
    let wrongBodies = 0;
    let wrongBodySample: string | null = null;
    let errorSample: string | null = null;
    // autocannon emits 'response' (with the status) and then, synchronously, asks verifyBody about
    // the same response; remembering the status lets a wrong body be counted only for 2xx, so
    // that no response is counted both as non-2xx and as a wrong body.
    let last2xx = false;
    const instance = autocannon(
      {
        url: target.url,
        method: target.method,
        headers: target.headers,
        ...(target.body === undefined ? {} : { body: target.body }),
        connections,
        duration: durationS,
        verifyBody: (body) => {
          if (last2xx && !isRight(body)) {
            wrongBodies += 1;
            wrongBodySample ??= body.slice(0, 300);
          }
          return true;
        },
      },
      (error, result) => {
        stopLoad = null;
        if (error) rejectRun(error);
        else resolveRun({ result, latenciesMs, wrongBodies, wrongBodySample, errorSample });
      },
    );
    stopLoad = () => instance.stop();
    // autocannon's own latency histogram has whole-millisecond resolution, too coarse for the
    // baseline; each response's own timing is kept instead (2xx only, as autocannon does).
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      last2xx = statusCode >= 200 && statusCode < 300;
      if (last2xx) latenciesMs.push(responseTimeMs);
    });
    instance.on('reqError', (error) => {
      errorSample ??= error.message;
    });
  });
}
