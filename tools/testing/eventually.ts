/**
 * The one way a test waits for something another process does asynchronously (an e-mail, a delivery
 * record, a consumer's effect, an outbox clear): a bounded poll. No fixed sleeps. When the wait runs
 * out, the error says what never happened and what was last seen, so a red test reads like a report.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface EventuallyOptions {
  /** How long to keep trying; generous, because CI may be a cold, slow machine. */
  timeoutMs?: number;
  /** Pause between tries. */
  intervalMs?: number;
}

/**
 * Cold-machine default: slow enough for a loaded 2-core box (a world's e-mails can queue behind the previous
 * file's), short enough to fail a test within its own time.
 */
export const defaultEventuallyTimeoutMs = 60_000;

/**
 * Polls `probe` until it returns a value other than null, undefined or false, and returns that value.
 * `what` completes "… never happened": write it as the thing awaited ("the delivery record for x@y").
 */
export async function eventually<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  { timeoutMs = defaultEventuallyTimeoutMs, intervalMs = 100 }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  let tries = 0;
  for (;;) {
    tries += 1;
    try {
      const value = await probe();
      if (value !== null && value !== undefined && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error; // the thing may not exist yet (a topic, a collection); keep polling
    }
    if (Date.now() >= deadline) break;
    await sleep(intervalMs);
  }
  const cause = lastError === undefined ? '' : `; the last try threw: ${String(lastError)}`;
  throw new Error(`${what} never happened within ${timeoutMs} ms (${tries} tries)${cause}`);
}

/**
 * Polls until `check` stops throwing (a jest `expect` block), then returns. The last assertion error is
 * rethrown with `what`, so the failure shows the diff that never came true.
 */
export async function eventuallyExpect(
  what: string,
  check: () => void | Promise<void>,
  options: EventuallyOptions = {},
): Promise<void> {
  let lastFailure: unknown;
  try {
    await eventually(
      what,
      async () => {
        try {
          await check();
          return true;
        } catch (error) {
          lastFailure = error;
          return false;
        }
      },
      options,
    );
  } catch (timeout) {
    const detail = lastFailure instanceof Error ? lastFailure.message : String(lastFailure);
    throw new Error(`${(timeout as Error).message}\nlast assertion:\n${detail}`);
  }
}
