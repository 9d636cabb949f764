/**
 * A page's own head tags (description, canonical link, robots, Open Graph and Twitter card), set while it
 * is shown and put back as they were when it goes. `headTagsFor` is pure; `applyHeadTags` touches the DOM.
 */
export interface PageMeta {
  /** The full document title (already formatted with formatPageTitle). */
  title: string;
  description: string;
  /** Absolute URL. */
  canonical: string;
  robots?: string;
}

export interface HeadTag {
  /** `meta[name=…]`, `meta[property=…]` or `link[rel=…]`. */
  kind: 'name' | 'property' | 'link';
  key: string;
  value: string;
}

export function headTagsFor(meta: PageMeta): HeadTag[] {
  return [
    { kind: 'name', key: 'description', value: meta.description },
    { kind: 'name', key: 'robots', value: meta.robots ?? 'index, follow' },
    { kind: 'link', key: 'canonical', value: meta.canonical },
    { kind: 'property', key: 'og:type', value: 'website' },
    { kind: 'property', key: 'og:title', value: meta.title },
    { kind: 'property', key: 'og:description', value: meta.description },
    { kind: 'property', key: 'og:url', value: meta.canonical },
    { kind: 'name', key: 'twitter:card', value: 'summary' },
    { kind: 'name', key: 'twitter:title', value: meta.title },
    { kind: 'name', key: 'twitter:description', value: meta.description },
  ];
}

/** Sets the tags and the title; the returned function restores exactly what was there before. */
export function applyHeadTags(doc: Document, meta: PageMeta): () => void {
  const previousTitle = doc.title;
  const undo: Array<() => void> = [];
  for (const tag of headTagsFor(meta)) {
    const selector = tag.kind === 'link' ? `link[rel="${tag.key}"]` : `meta[${tag.kind}="${tag.key}"]`;
    const attribute = tag.kind === 'link' ? 'href' : 'content';
    const existing = doc.head.querySelector(selector);
    if (existing) {
      const before = existing.getAttribute(attribute);
      existing.setAttribute(attribute, tag.value);
      undo.push(() =>
        before === null ? existing.removeAttribute(attribute) : existing.setAttribute(attribute, before),
      );
    } else {
      const element = doc.createElement(tag.kind === 'link' ? 'link' : 'meta');
      if (tag.kind === 'link') element.setAttribute('rel', tag.key);
      else element.setAttribute(tag.kind, tag.key);
      element.setAttribute(attribute, tag.value);
      doc.head.appendChild(element);
      undo.push(() => element.remove());
    }
  }
  doc.title = meta.title;
  return () => {
    for (const step of undo.reverse()) step();
    doc.title = previousTitle;
  };
}
