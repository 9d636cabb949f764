import { scrubNotes } from '../src/domain/scrub';
import { harmlessNotes, personalNotes } from './support';

describe('scrubNotes', () => {
  it.each(personalNotes)('takes the personal details out of “%s”', (notes, details) => {
    const scrubbed = scrubNotes(notes);
    for (const detail of details) expect(scrubbed).not.toContain(detail);
    expect(scrubbed).toMatch(/\[(email|number|link|id|name|account|date|address)\]/);
  });

  it.each(harmlessNotes)('leaves “%s” as it is', (notes) => {
    expect(scrubNotes(notes)).toBe(notes);
  });

  it('says what it took out, in place', () => {
    expect(scrubNotes('write to ada.l@example.co.uk or call +44 7700 900123; my name is Grace')).toBe(
      'write to [email] or call [number]; my name is [name]',
    );
    expect(scrubNotes('born on 14 March 1990, so turning 36')).toBe('born on [date], so turning 36');
    expect(scrubNotes('moved to 12 Elm Grove last week')).toBe('moved to [address] last week');
    expect(scrubNotes('sort code 12-34-56, DOB 02/11/1979')).toBe('sort code [number], DOB [date]');
  });

  it("takes out the user's own names in any case, but not inside other words", () => {
    expect(scrubNotes('ADA said hi to Adam; Lovelace too', ['Ada', 'Lovelace'])).toBe(
      '[name] said hi to Adam; [name] too',
    );
  });
});
