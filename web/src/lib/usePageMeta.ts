import { useContext, useEffect } from 'react';
import { applyHeadTags, type PageMeta } from './pageMeta';
import { PrerenderContext } from './prerendered';

/** The page's title and head tags while it is shown; the defaults come back when it goes. */
export function usePageMeta(meta: PageMeta): void {
  const { title, description, canonical, robots } = meta;
  // The build's prerender has no document: it writes the tags into the page's HTML.
  useContext(PrerenderContext)?.setHead({ title, description });
  useEffect(
    () => applyHeadTags(document, { title, description, canonical, robots }),
    [title, description, canonical, robots],
  );
}
