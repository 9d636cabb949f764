import { messageIdOf } from '../src/domain/email-parts';

describe('one Message-ID per delivery', () => {
  it('is the same every time for one delivery, so a copy sent again is recognisably the same message', () => {
    const id = messageIdOf('campaign-1:newsletter:ana@example.com', 'Haven <hello@haven.example>');
    expect(id).toBe(messageIdOf('campaign-1:newsletter:ana@example.com', 'Haven <hello@haven.example>'));
    expect(id).toMatch(/^<[A-Za-z0-9_-]{32}@haven\.example>$/);
  });

  it('differs between recipients and between sends, and names no address', () => {
    const ids = new Set([
      messageIdOf('campaign-1:newsletter:ana@example.com', 'hello@haven.example'),
      messageIdOf('campaign-1:newsletter:bo@example.com', 'hello@haven.example'),
      messageIdOf('campaign-2:newsletter:ana@example.com', 'hello@haven.example'),
    ]);
    expect(ids.size).toBe(3);
    for (const id of ids) expect(id).not.toMatch(/ana|bo@/);
  });

  it('falls back to a local domain when the sender has none', () => {
    expect(messageIdOf('x', 'Haven')).toMatch(/@haven\.local>$/);
  });
});
