import { scrubNotes } from '../src/domain/scrub';

describe('scrubNotes', () => {
  it.each([
    ['write to ada.l@example.co.uk today', 'write to [email] today'],
    ['call me on +44 7700 900123 or (555) 123-4567', 'call me on [number] or [number]'],
    ['see https://example.com/me', 'see [link]'],
    ['id 3f2b8c1e-1d2a-4c5b-9e8f-0a1b2c3d4e5f', 'id [id]'],
    ['my name is Grace and this is Hopper', 'my name is [name] and this is [name]'],
    ['slept 6 hours, 3 coffees', 'slept 6 hours, 3 coffees'],
  ])('%s', (notes, scrubbed) => {
    expect(scrubNotes(notes)).toBe(scrubbed);
  });

  it("takes out the user's own names in any case, but not inside other words", () => {
    expect(scrubNotes('ADA said hi to Adam; Lovelace too', ['Ada', 'Lovelace'])).toBe(
      '[name] said hi to Adam; [name] too',
    );
  });
});
