import { useEffect } from 'react';
import { formatPageTitle } from './pageTitle';

/** Sets document.title to "<page> | Haven - Mental Health Support" while the page is shown. */
export function usePageTitle(page?: string): void {
  useEffect(() => {
    document.title = formatPageTitle(page);
  }, [page]);
}
