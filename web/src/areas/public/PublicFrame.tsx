/** The public pages' frame: the skip link, Haven's header, the main region and the footer. */
import type { ReactNode } from 'react';
import { PublicFooter } from './PublicFooter';
import { PublicNav } from './PublicNav';
import { SkipLink } from '../../ui/SkipLink';

export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <div className="public">
      <SkipLink />
      <PublicNav />
      <main id="main" className="public__main">
        {children}
      </main>
      <PublicFooter />
    </div>
  );
}
