import { PRERENDER, ROUTES, type Prerender } from './routeTable';

const entries = Object.values(ROUTES).flatMap((group) => Object.entries(group));

describe('the route table', () => {
  it('names each page once', () => {
    const pages = entries.map(([page]) => page);
    expect(new Set(pages).size).toBe(pages.length);
  });

  it('gives every path one page, but `/`, which is the landing page signed out and the dashboard signed in', () => {
    expect(entries.filter(([, path]) => path === '/').map(([page]) => page)).toEqual(['landing', 'dashboard']);
    expect(ROUTES.signedOut).toEqual({ landing: '/' });
    expect(ROUTES.signedIn.dashboard).toBe('/');
    const paths = entries.map(([, path]) => path).filter((path) => path !== '/');
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('prerenders each page into its own file', () => {
    const prerendered = Object.values<Prerender | undefined>(PRERENDER);
    const files = prerendered.map((prerender) => prerender?.file);
    expect(new Set(files).size).toBe(files.length);
    expect(prerendered.filter((prerender) => prerender?.byCountry)).toHaveLength(1);
  });
});
