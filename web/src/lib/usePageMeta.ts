import { useEffect } from 'react';
import { applyHeadTags, type PageMeta } from './pageMeta';

/** The page's title and head tags while it is shown; the defaults come back when it goes. */
export function usePageMeta(meta: PageMeta): void {
  const { title, description, canonical, robots } = meta;
  useEffect(
    () => applyHeadTags(document, { title, description, canonical, robots }),
    [title, description, canonical, robots],
  );
}
