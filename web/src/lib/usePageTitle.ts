import { useContext, useEffect } from 'react';
import { formatPageTitle } from './pageTitle';
import { PrerenderContext } from './prerendered';

/** Sets document.title to "<page> | Haven - Mental Health Support" while the page is shown. */
export function usePageTitle(page?: string): void {
  // The build's prerender has no document: it writes the title into the page's HTML.
  useContext(PrerenderContext)?.setHead({ title: formatPageTitle(page) });
  useEffect(() => {
    document.title = formatPageTitle(page);
  }, [page]);
}
