import { randomBytes } from 'node:crypto';
import { emailKinds } from '../src/domain/email-kinds';
import { isStoppableKind, readStopToken, stopHeaders, stopMessages, stopToken } from '../src/domain/stop-links';

const key = randomBytes(32);
const userId = '6650f1c2a9e4b7d3c1e2f3a4';

describe('stop links', () => {
  it('reads back the user and kind it was minted for', () => {
    expect(readStopToken(key, stopToken(key, userId, 'weekly-summary'))).toEqual({ userId, kind: 'weekly-summary' });
    expect(readStopToken(key, stopToken(key, 'user-ä.1', 'marketing'))).toEqual({
      userId: 'user-ä.1',
      kind: 'marketing',
    });
  });

  it('refuses a token altered anywhere, minted under another key, or not a token at all', () => {
    const token = stopToken(key, userId, 'weekly-summary');
    const [user, kind, mac] = token.split('.') as [string, string, string];
    const otherUser = Buffer.from('6650f1c2a9e4b7d3c1e2f3a5').toString('base64url');
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const wrong of [
      `${user}.${kind}.${flipped}`,
      `${otherUser}.${kind}.${mac}`,
      `${user}.marketing.${mac}`,
      `${user}.${kind}.${mac.slice(1)}`,
      `${user}.${kind}`,
      `${token}.extra`,
      stopToken(randomBytes(32), userId, 'weekly-summary'),
      '',
      42,
      null,
      'x'.repeat(5_000),
    ]) {
      expect(readStopToken(key, wrong)).toBeNull();
    }
  });

  it('never stops an e-mail that is always sent, a security notice or the newsletter (its own link)', () => {
    const stoppable = Object.keys(emailKinds).filter(isStoppableKind);
    expect(stoppable.sort()).toEqual(['check-in-reminder', 'marketing', 'product-update', 'weekly-summary']);
    for (const kind of ['password-changed', 'verify-email', 'billing-receipt', 'newsletter']) {
      expect(isStoppableKind(kind)).toBe(false);
      const forged = `${Buffer.from(userId).toString('base64url')}.${kind}.${'A'.repeat(32)}`;
      expect(readStopToken(key, forged)).toBeNull();
    }
  });

  it('gives the mail client the RFC 8058 pair and the person a plain answer', () => {
    expect(stopHeaders('https://haven.example/app', 'a.weekly-summary.b')).toEqual({
      'List-Unsubscribe': '<https://haven.example/app/hooks/notification/emails/one-click?token=a.weekly-summary.b>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(stopMessages.stopped('weekly-summary')).toBe(
      "You won't get the weekly summary any more. You can turn it back on in your email preferences.",
    );
    expect(stopMessages.stopped('marketing')).toBe(
      "You won't get marketing emails any more. You can turn them back on in your email preferences.",
    );
  });
});
