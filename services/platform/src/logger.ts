import pino from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs; every line names its service, requests add requestId and correlationId. */
export function createLogger(service: string, level: string): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime });
}
