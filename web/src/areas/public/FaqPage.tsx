/**
 * `/faq`: 30 questions in six groups. One entry open at a time unless the visitor allows several (then
 * Expand All / Collapse All show); the URL hash follows the open entry, and a hash on load opens its entry
 * and scrolls to it. Sets its own head tags and embeds FAQPage structured data built from the same entries.
 */
import { useEffect, useId, useState } from 'react';
import { BRAND } from '../../brand';
import { formatPageTitle } from '../../lib/pageTitle';
import { rendersAsPrerendered, useInteractive } from '../../lib/prerendered';
import { usePageMeta } from '../../lib/usePageMeta';
import { Button, buttonClass } from '../../ui/Button';
import { LazySwitch } from '../../ui/LazySwitch';
import { DocPage } from './DocPage';
import { FAQ_SCROLL_DELAY_MS, faqJsonLd, hashAfterToggle, serializeJsonLd, slugFromHash, toggleEntry } from './faq';
import { FAQ_ENTRIES, FAQ_GROUPS, type FaqEntry } from './faqEntries';
import { prefersReducedMotion } from './motion';
import { CONTACT_EMAIL, CONTACT_MAILTO } from './publicLinks';
import './public.css';

const DESCRIPTION = `Answers about ${BRAND.name}: the daily check-in, supportive messages, the free trial and billing, your data and privacy, and getting help.`;
const JSON_LD = serializeJsonLd(faqJsonLd(FAQ_ENTRIES));

/** Sets the hash without a navigation or a jump; an empty hash leaves a clean /faq. */
function replaceHash(hash: string) {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}${hash}`);
}

export function FaqPage() {
  usePageMeta({
    title: formatPageTitle('Frequently Asked Questions'),
    description: DESCRIPTION,
    canonical: `${globalThis.location?.origin ?? ''}/faq`,
    robots: 'index, follow',
  });

  // Prerendered, every entry starts closed, as the HTML has them; the effect below opens the hash's entry.
  const [open, setOpen] = useState<ReadonlySet<string>>(() => {
    const slug = rendersAsPrerendered() ? null : slugFromHash(window.location.hash, FAQ_ENTRIES);
    return new Set(slug ? [slug] : []);
  });
  const [multiOpen, setMultiOpen] = useState(false);
  const multiId = useId();

  // A hash naming an entry (on load, or typed/followed later) opens it and scrolls to it.
  useEffect(() => {
    let timer: number | undefined;
    const follow = () => {
      const slug = slugFromHash(window.location.hash, FAQ_ENTRIES);
      if (!slug) return;
      setOpen((current) => (current.has(slug) ? current : new Set([...current, slug])));
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        document
          .getElementById(slug)
          ?.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
      }, FAQ_SCROLL_DELAY_MS);
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => {
      window.removeEventListener('hashchange', follow);
      window.clearTimeout(timer);
    };
  }, []);

  function onToggle(slug: string) {
    const next = toggleEntry(open, slug, multiOpen);
    setOpen(next);
    replaceHash(hashAfterToggle(next, slug));
  }

  function onMultiOpenChange(enabled: boolean) {
    setMultiOpen(enabled);
    // Back to one at a time: keep only the entry the hash names (or the first open one).
    if (!enabled && open.size > 1) {
      const keep = slugFromHash(window.location.hash, FAQ_ENTRIES) ?? [...open][0];
      setOpen(new Set(keep ? [keep] : []));
    }
  }

  return (
    <DocPage title="Frequently Asked Questions">
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON_LD }} />
      <p className="public-section__lead faq__intro">
        Everything you might want to know about {BRAND.name}: how the check-in works, what the trial includes, how we
        look after your data, and where to find help.
      </p>

      <div className="faq__toolbar">
        <span className="faq__mode">
          <LazySwitch id={multiId} checked={multiOpen} onCheckedChange={onMultiOpenChange} />
          <label htmlFor={multiId}>Allow several answers open</label>
        </span>
        {multiOpen && (
          <>
            <Button variant="outline" size="sm" onClick={() => setOpen(new Set(FAQ_ENTRIES.map((e) => e.slug)))}>
              Expand All
            </Button>
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                setOpen(new Set());
                replaceHash('');
              }}
            >
              Collapse All
            </Button>
          </>
        )}
      </div>

      {FAQ_GROUPS.map((group, groupIndex) => (
        <section key={group.title} className="faq__group" aria-labelledby={`faq-group-${groupIndex}`}>
          <h2 id={`faq-group-${groupIndex}`}>{group.title}</h2>
          {group.entries.map((entry) => (
            <FaqItem key={entry.slug} entry={entry} open={open.has(entry.slug)} onToggle={onToggle} />
          ))}
        </section>
      ))}

      <section className="public-section cta faq__still" aria-labelledby="faq-still">
        <h2 id="faq-still">Still have questions?</h2>
        <p>We are happy to help. A person reads every message.</p>
        <p>
          <a className={buttonClass()} href={CONTACT_MAILTO}>
            Contact Support
          </a>
        </p>
        <p className="text-muted">{CONTACT_EMAIL}</p>
      </section>
    </DocPage>
  );
}

function FaqItem({ entry, open, onToggle }: { entry: FaqEntry; open: boolean; onToggle: (slug: string) => void }) {
  const answerId = `${entry.slug}-answer`;
  const interactive = useInteractive();
  return (
    <div id={entry.slug} className="faq__item" data-open={open}>
      <h3 className="faq__question">
        <button
          id={`${entry.slug}-question`}
          type="button"
          className="faq__trigger"
          aria-expanded={open}
          aria-controls={answerId}
          disabled={!interactive}
          onClick={() => onToggle(entry.slug)}
        >
          {entry.question}
          <svg className="faq__chevron" width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </h3>
      <div
        id={answerId}
        className="faq__answer"
        role="region"
        aria-labelledby={`${entry.slug}-question`}
        hidden={!open}
      >
        {entry.answer.map((paragraph) => (
          <p key={paragraph.slice(0, 40)}>{paragraph}</p>
        ))}
      </div>
    </div>
  );
}
