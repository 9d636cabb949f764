/** `/terms`: the Terms of Service in 13 numbered sections, last updated 28 January 2025. */
import { usePageTitle } from '../../lib/usePageTitle';
import { DocPage } from './DocPage';
import { LEGAL_LAST_UPDATED } from './legal';
import { TERMS_SECTIONS } from './termsContent';
import './public.css';

export function TermsPage() {
  usePageTitle('Terms of Service');
  return (
    <DocPage title="Terms of Service" meta={`Last updated ${LEGAL_LAST_UPDATED}`}>
      {TERMS_SECTIONS.map((section, index) => (
        <section key={section.title} aria-labelledby={`terms-${index + 1}`}>
          <h2 id={`terms-${index + 1}`}>
            {index + 1}. {section.title}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph.slice(0, 40)}>{paragraph}</p>
          ))}
        </section>
      ))}
    </DocPage>
  );
}
