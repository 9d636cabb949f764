/**
 * A plain SMTP server that only counts: who received which subject. For the newsletter's fan-out tests
 * and its benchmark, so the figures are Haven's and not a mail catcher's (which stores and indexes).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CountingSmtp {
  port: number;
  /** Messages accepted with this subject, per recipient address (lower case). */
  copies(subject: string): Map<string, number>;
  /** Messages accepted with this subject, all recipients together. */
  total(subject: string): number;
  /** The Message-ID of every copy with this subject, per recipient address (lower case), in order of acceptance. */
  messageIds(subject: string): Map<string, string[]>;
  /** When the last message with this subject was accepted (ms since the epoch), or null. */
  lastAcceptedAt(subject: string): number | null;
  close(): Promise<void>;
}

export async function startCountingSmtp(): Promise<CountingSmtp> {
  interface Tally {
    copies: Map<string, number>;
    messageIds: Map<string, string[]>;
    total: number;
    last: number;
  }
  const bySubject = new Map<string, Tally>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Many pooled connections at once from the fan-out.
    maxClients: 200,
    onData(stream, session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8_192) head += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const subject = /^Subject: (.*)$/im.exec(head)?.[1]?.trim() ?? '';
        const messageId = /^Message-ID: (.*)$/im.exec(head)?.[1]?.trim() ?? '';
        const entry = bySubject.get(subject) ?? { copies: new Map(), messageIds: new Map(), total: 0, last: 0 };
        for (const to of session.envelope.rcptTo) {
          const address = to.address.toLowerCase();
          entry.copies.set(address, (entry.copies.get(address) ?? 0) + 1);
          entry.messageIds.set(address, [...(entry.messageIds.get(address) ?? []), messageId]);
          entry.total += 1;
        }
        entry.last = Date.now();
        bySubject.set(subject, entry);
        callback();
      });
    },
  });
  // A sender killed mid-conversation resets its connections: the server reports each, and nothing is wrong.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    copies: (subject) => bySubject.get(subject)?.copies ?? new Map(),
    messageIds: (subject) => bySubject.get(subject)?.messageIds ?? new Map(),
    total: (subject) => bySubject.get(subject)?.total ?? 0,
    lastAcceptedAt: (subject) => bySubject.get(subject)?.last ?? null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
