import { randomBytes, randomUUID } from 'node:crypto';
import { exportFileName } from '../src/domain/csv';
import { mayReceive } from '../src/domain/email-kinds';
import { newsletterContentMaxLength } from '@haven/domain';
import {
  checkDraft,
  hashToken,
  isWellFormedToken,
  newConfirmation,
  previewOf,
  subscriberOfUnsubscribeToken,
  testSubjectOf,
  unsubscribeTokenOf,
} from '../src/domain/newsletter';
import { stopToken } from '../src/domain/stop-links';
import { renderNewsletterEmail, textOf } from '../src/domain/newsletter-emails';
import { defaultEmailPreferences } from '../src/domain/preferences';
import { sanitizeNewsletterHtml } from '../src/domain/sanitize';

describe('confirmation tokens', () => {
  it('stores only a hash, and expires in 48 hours', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    const { token, tokenHash, expiresAt } = newConfirmation(now);
    expect(isWellFormedToken(token)).toBe(true);
    expect(tokenHash).toBe(hashToken(token));
    expect(tokenHash).not.toContain(token);
    expect(expiresAt.toISOString()).toBe('2026-11-25T10:00:00.000Z');
  });

  it('refuses anything that is not a token before any lookup', () => {
    for (const bad of ['', 'short', '<script>alert(1)</script>', 42, null, 'a'.repeat(101)]) {
      expect(isWellFormedToken(bad)).toBe(false);
    }
  });
});

describe('unsubscribe tokens', () => {
  const key = randomBytes(32);
  const subscriberId = randomUUID();

  it('name their subscriber under the key, so nothing is stored per link', () => {
    const token = unsubscribeTokenOf(key, subscriberId);
    expect(token).toMatch(/^[\w-]+\.[\w-]{32}$/);
    expect(subscriberOfUnsubscribeToken(key, token)).toBe(subscriberId);
  });

  it('refuses a token altered, signed with another key, for another purpose, or not a token at all', () => {
    const token = unsubscribeTokenOf(key, subscriberId);
    const [id, mac] = token.split('.') as [string, string];
    const otherId = Buffer.from(randomUUID()).toString('base64url');
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [
      `${otherId}.${mac}`,
      `${id}.${flipped}`,
      unsubscribeTokenOf(randomBytes(32), subscriberId),
      stopToken(key, subscriberId, 'marketing'),
      '',
      'a'.repeat(300),
      42,
      null,
    ]) {
      expect(subscriberOfUnsubscribeToken(key, bad)).toBeNull();
    }
  });
});

describe('the newsletter copy', () => {
  const email = renderNewsletterEmail({
    productName: 'Haven',
    appUrl: 'https://haven.example/',
    subject: 'This week',
    safeHtml: '<p>Breathe &amp; rest</p>',
    unsubscribeToken: 'tok_123',
  });

  it('carries the RFC 8058 one-click headers and a personal unsubscribe link', () => {
    expect(email.headers).toEqual({
      'List-Unsubscribe': '<https://haven.example/hooks/notification/newsletter/one-click?token=tok_123>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(email.text).toContain('https://haven.example/unsubscribe-newsletter?token=tok_123');
    expect(email.html).toContain('https://haven.example/unsubscribe-newsletter?token=tok_123');
    expect(email.text.startsWith('Breathe & rest')).toBe(true);
  });

  it('reads sanitised HTML as text', () => {
    expect(textOf('<h2>Title</h2><p>One<br>two</p>')).toBe('Title\nOne\ntwo');
  });
});

describe('a draft, as every newsletter route checks it', () => {
  const atLimit = `<p>${'a'.repeat(newsletterContentMaxLength - 7)}</p>`;
  it('takes content exactly at the limit, sanitised, with the subject trimmed', () => {
    expect(atLimit).toHaveLength(newsletterContentMaxLength);
    expect(checkDraft(' Hello ', `${atLimit}`)).toEqual({ ok: true, draft: { subject: 'Hello', html: atLimit } });
  });
  it('refuses one character over, naming the content and the limit in words', () => {
    expect(checkDraft('Hello', `${atLimit} `)).toEqual({
      ok: false,
      problems: [
        {
          field: 'content',
          message: 'The content is 15,001 characters; it can be at most 15,000. Please shorten it and try again.',
        },
      ],
    });
  });
  it('refuses a missing field, a long subject, and content with no text once unsafe HTML is removed', () => {
    expect(checkDraft(' ', '<p>Hi</p>')).toMatchObject({ ok: false, problems: [{ field: 'subject' }] });
    expect(checkDraft('a'.repeat(201), '<p>Hi</p>')).toMatchObject({ ok: false, problems: [{ field: 'subject' }] });
    expect(checkDraft('Hi', '<script>x()</script>')).toMatchObject({ ok: false, problems: [{ field: 'content' }] });
  });
  it('marks a test copy in its subject', () => {
    expect(testSubjectOf('This week')).toBe('[Test] This week');
  });
});

describe('sanitising the admin’s HTML', () => {
  it('keeps formatting and safe links, drops scripts, handlers and javascript: links', () => {
    const safe = sanitizeNewsletterHtml(
      '<h2 onclick="x()">Hi</h2><script>steal()</script><a href="javascript:x()">bad</a><a href="https://ok.example">ok</a>',
    );
    expect(safe).toContain('<h2>Hi</h2>');
    expect(safe).not.toMatch(/script|onclick|javascript:/);
    expect(safe).toContain('href="https://ok.example"');
  });
});

describe('e-mail kinds', () => {
  it('always sends security and billing e-mails, and follows the switches for the rest', () => {
    const allOff = {
      marketingEmails: false,
      productUpdates: false,
      securityNotifications: false,
      newsletter: false,
      weeklySummary: false,
      checkInReminder: false,
    };
    // What the person asked for, and billing's e-mails, always go.
    for (const kind of ['verify-email', 'verify-new-email', 'password-reset', 'newsletter-confirmation'] as const) {
      expect(mayReceive(kind, allOff)).toBe(true);
    }
    expect(mayReceive('billing-payment-failed', allOff)).toBe(true);
    // The security notices follow securityNotifications, which is on by default.
    for (const kind of ['password-changed', 'email-changed', 'sign-in-method-linked'] as const) {
      expect(mayReceive(kind, allOff)).toBe(false);
      expect(mayReceive(kind, defaultEmailPreferences)).toBe(true);
    }
    expect(mayReceive('marketing', defaultEmailPreferences)).toBe(false);
    expect(mayReceive('product-update', defaultEmailPreferences)).toBe(true);
    expect(mayReceive('newsletter', { ...allOff, newsletter: true })).toBe(true);
    // The weekly summary is opt-in: off by default, on only with its own switch.
    expect(mayReceive('weekly-summary', defaultEmailPreferences)).toBe(false);
    expect(mayReceive('weekly-summary', { ...defaultEmailPreferences, newsletter: true })).toBe(false);
    expect(mayReceive('weekly-summary', { ...allOff, weeklySummary: true })).toBe(true);
    // So is the daily check-in reminder.
    expect(mayReceive('check-in-reminder', defaultEmailPreferences)).toBe(false);
    expect(mayReceive('check-in-reminder', { ...allOff, weeklySummary: true })).toBe(false);
    expect(mayReceive('check-in-reminder', { ...allOff, checkInReminder: true })).toBe(true);
  });
});

describe('the subscriber export', () => {
  it('names the file with the subscribers prefix and the date', () => {
    expect(exportFileName(new Date('2026-11-23T23:00:00Z'))).toBe('subscribers-2026-11-23.csv');
  });
});

it('previews 200 characters and an ellipsis', () => {
  expect(previewOf('x'.repeat(201))).toBe(`${'x'.repeat(200)}...`);
});
