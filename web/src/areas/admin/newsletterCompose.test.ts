import {
  NEWSLETTER_CONTENT_MAX_LENGTH,
  contentCountOf,
  contentTooLongMessage,
  isComposeComplete,
  isSendable,
  pendingOf,
  previewOf,
  sendToLabel,
} from './newsletterCompose';

describe('the newsletter composer', () => {
  it('previews the first 200 characters, then an ellipsis', () => {
    expect(previewOf('a'.repeat(200))).toBe('a'.repeat(200));
    expect(previewOf('b'.repeat(201))).toBe(`${'b'.repeat(200)}...`);
  });
  it('needs both fields, not just spaces', () => {
    expect(isComposeComplete('Hello', '<p>Hi</p>')).toBe(true);
    expect(isComposeComplete('  ', '<p>Hi</p>')).toBe(false);
    expect(isComposeComplete('Hello', '\n ')).toBe(false);
  });
  it('counts pending as total less active', () => {
    expect(pendingOf({ total: 10, active: 7 })).toBe(3);
  });
  it('counts the content against the service’s limit, and says how far over it is', () => {
    expect(contentCountOf('a'.repeat(1234))).toBe(
      `1,234 of ${NEWSLETTER_CONTENT_MAX_LENGTH.toLocaleString('en-GB')} characters`,
    );
    const atLimit = 'a'.repeat(NEWSLETTER_CONTENT_MAX_LENGTH);
    expect(contentTooLongMessage(atLimit)).toBeNull();
    expect(isSendable('Hello', atLimit)).toBe(true);
    expect(contentTooLongMessage(`${atLimit}a`)).toBe(
      'This is 1 character over the limit. Please shorten it before sending.',
    );
    expect(isSendable('Hello', `${atLimit}a`)).toBe(false);
  });
  it('names the number of subscribers on the send button', () => {
    expect(sendToLabel(1)).toBe('Send to 1 subscriber');
    expect(sendToLabel(1200)).toBe('Send to 1,200 subscribers');
  });
});
