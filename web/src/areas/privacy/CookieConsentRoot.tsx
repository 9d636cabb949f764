/**
 * Mounted once at the app's root (app/routes.tsx), so public and signed-in pages alike have the banner.
 * Hidden at first; asks the server (consentStore.ts) and shows the banner only when the consent rules say so
 * (consentRules.ts `bannerShouldShow`), or when Settings asks to change the choice. The banner's own code
 * loads only then, so a returning visitor downloads none of it. Once decided, `<html data-consent-checked>`.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { loadOrReload } from '../../lib/bundles';
import { bannerShouldShow } from './consentRules';
import { loadConsent, useCustomiseRequests } from './consentStore';

const CookieBanner = lazy(loadOrReload(() => import('./CookieBanner')));

type View = 'summary' | 'details';

export function CookieConsentRoot() {
  const [open, setOpen] = useState<View | null>(null);
  const customiseRequests = useCustomiseRequests();

  useEffect(() => {
    let mounted = true;
    void loadConsent().then((state) => {
      if (!mounted) return;
      if (state.status === 'ready' && bannerShouldShow(state.config, state.consent)) {
        setOpen((current) => current ?? 'summary');
      }
      // Whether the banner shows is decided: a hidden banner leaves no other trace, and the browser tests wait on it.
      document.documentElement.dataset.consentChecked = 'true';
    });
    return () => {
      mounted = false;
    };
  }, []);

  useEffect(() => {
    if (customiseRequests > 0) setOpen('details');
  }, [customiseRequests]);

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <CookieBanner key={customiseRequests} initialView={open} onClose={() => setOpen(null)} />
    </Suspense>
  );
}
