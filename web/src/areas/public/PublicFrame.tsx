/** The public pages' frame: the skip link, Haven's header, the main region and the footer. */
import type { ReactNode } from 'react';
import { PublicFooter } from './PublicFooter';
import { PublicNav } from './PublicNav';

export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <div className="public">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <PublicNav />
      <main id="main" className="public__main">
        {children}
      </main>
      <PublicFooter />
    </div>
  );
}
