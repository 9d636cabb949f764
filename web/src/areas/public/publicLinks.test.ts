import { NAV_ITEMS, resolveNavHref } from './publicLinks';

describe('public navigation', () => {
  it('lists the spec’s items in order', () => {
    expect(NAV_ITEMS.map((item) => item.label)).toEqual(['Features', 'About', 'Why Choose', 'FAQ', 'Contact']);
  });

  it('keeps anchors in place on the landing page and leads to the landing page elsewhere', () => {
    expect(resolveNavHref('#features', true)).toBe('#features');
    expect(resolveNavHref('#features', false)).toBe('/#features');
    expect(resolveNavHref('#contact', false)).toBe('#contact');
    expect(resolveNavHref('/about', false)).toBe('/about');
  });
});
