/**
 * The part of autocannon 8 that tools/bench uses (the package ships no types).
 * See node_modules/autocannon/README.md for the full API.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      pipelining?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      /** A false return counts the response as a mismatch. */
      verifyBody?: (body: string) => boolean;
      /** Milliseconds between the samples of `requests` and `throughput`. */
      sampleInt?: number;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total?: number;
      p50: number;
      p90: number;
      p99: number;
      [percentile: `p${string}`]: number;
    }

    interface Result {
      url: string;
      connections: number;
      duration: number;
      samples: number;
      start: Date;
      finish: Date;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      /** Milliseconds, whole-millisecond resolution. */
      latency: Histogram & { totalCount: number };
      /** Requests completed per sample interval (per second by default). */
      requests: Histogram & { sent: number };
      /** Bytes per sample interval. */
      throughput: Histogram;
    }

    interface Instance extends EventEmitter {
      stop(): void;
      on(
        event: 'response',
        listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
      ): this;
      on(event: 'reqMismatch', listener: (body: string) => void): this;
      on(event: 'reqError', listener: (error: Error) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(
    options: autocannon.Options,
    callback: (error: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;

  export = autocannon;
}
