/**
 * A logger whose output a test reads, for what an operator would see: each line parsed (its fields and message),
 * and the whole text as written, to prove what no line contains (an address, a name).
 */
import type { Logger } from '@haven/platform';
import pino from 'pino';
import { Writable } from 'node:stream';

export type LogLine = Record<string, unknown> & { level: number; msg: string };

export interface CapturedLog {
  log: Logger;
  /** Every line so far, in order. */
  lines: LogLine[];
  /** Every line so far, as written. */
  text(): string;
  /** The lines whose message is `msg`. */
  withMessage(msg: string): LogLine[];
}

export function capturedLog(level: pino.Level = 'info'): CapturedLog {
  return capturedLogFrom((sink) => pino({ level }, sink) as unknown as Logger);
}

/** As `capturedLog`, for a logger a test makes itself on the given sink (a service's own, with its mixin). */
export function capturedLogFrom(makeLogger: (sink: Writable) => Logger): CapturedLog {
  const lines: LogLine[] = [];
  const written: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        written.push(line);
        lines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });
  return {
    log: makeLogger(sink),
    lines,
    text: () => written.join('\n'),
    withMessage: (msg) => lines.filter((line) => line.msg === msg),
  };
}
