import { isComposeComplete, pendingOf, previewOf } from './newsletterCompose';

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
});
