/** The frame of the long public pages (About, Terms, Privacy): navigation, back link, title, body, return button, footer. */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { buttonClass } from '../../ui/Button';
import { PublicFrame } from './PublicFrame';

export interface DocPageProps {
  title: string;
  /** Under the title, e.g. "Last updated 28 January 2025". */
  meta?: string;
  children: ReactNode;
}

export function DocPage({ title, meta, children }: DocPageProps) {
  return (
    <PublicFrame>
      <article className="doc">
        <Link to="/" className="doc__back">
          ← Back to Home
        </Link>
        <h1 className="doc__title">{title}</h1>
        {meta && <p className="doc__meta">{meta}</p>}
        <div className="doc__body">{children}</div>
        <div className="doc__return">
          <Link to="/" className={buttonClass({ variant: 'outline' })}>
            Return to Home
          </Link>
        </div>
      </article>
    </PublicFrame>
  );
}
