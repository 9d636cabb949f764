/**
 * The cookie banner (every page, at the bottom): We value your privacy, Accept All,
 * Essential Only, Customize; the detailed view's switches with Save Preferences and Back; the close icon
 * acts as Essential Only. Buttons are disabled while saving; after a choice, or a failed save, it closes
 * (failures are logged only). Haven sets no analytics, marketing or preference cookies today, and says so.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../ui/Button';
import { Label } from '../../ui/Label';
import { Switch } from '../../ui/Switch';
import { ACCEPT_ALL, ESSENTIAL_ONLY, type CookieChoice } from './consentRules';
import { saveConsent, useConsentState } from './consentStore';
import './privacy.css';

type Optional = 'analytics' | 'marketing' | 'preferences';

const categories: Array<{ key: 'necessary' | Optional; label: string; description: string }> = [
  {
    key: 'necessary',
    label: 'Essential cookies',
    description: 'Keep you signed in, protect your account and remember this choice. Always on.',
  },
  {
    key: 'analytics',
    label: 'Analytics cookies',
    description: 'Would help us see which pages people use, never what you write. Haven uses none today.',
  },
  {
    key: 'marketing',
    label: 'Marketing cookies',
    description: 'Would tell us which of our adverts brought you here. Haven uses none today.',
  },
  {
    key: 'preferences',
    label: 'Preference cookies',
    description: 'Would remember extra settings on this device. Haven uses none today.',
  },
];

export interface CookieBannerProps {
  initialView: 'summary' | 'details';
  onClose: () => void;
}

export default function CookieBanner({ initialView, onClose }: CookieBannerProps) {
  const state = useConsentState();
  const current = state.status === 'ready' ? state.consent : null;
  const [view, setView] = useState(initialView);
  const [saving, setSaving] = useState(false);
  const [choice, setChoice] = useState<CookieChoice>(() => ({
    necessary: true,
    analytics: current?.analytics ?? false,
    marketing: current?.marketing ?? false,
    preferences: current?.preferences ?? false,
  }));

  // While the banner is up, the page keeps room for it at its bottom, so nothing (a form's last button, the
  // footer) stays hidden beneath it.
  const banner = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = banner.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty('--cookie-banner-space', `${element.offsetHeight}px`),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--cookie-banner-space');
    };
  }, []);

  const save = async (chosen: CookieChoice) => {
    setSaving(true);
    try {
      await saveConsent(chosen);
    } catch {
      // Logged by saveConsent; the banner closes without a message, as it would have on success.
    } finally {
      setSaving(false);
      onClose();
    }
  };

  return (
    <section ref={banner} className="cookie-banner" aria-labelledby="cookie-banner-title" data-testid="cookie-banner">
      <div className="cookie-banner__inner">
        <button
          type="button"
          className="btn btn--ghost btn--icon cookie-banner__close"
          aria-label="Close (essential cookies only)"
          disabled={saving}
          onClick={() => void save(ESSENTIAL_ONLY)}
        >
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <h2 id="cookie-banner-title" className="cookie-banner__title">
          We value your privacy
        </h2>
        {view === 'summary' ? (
          <>
            <p className="cookie-banner__text">
              Haven uses essential cookies to keep you signed in and to remember this choice. We would only use
              analytics, marketing or preference cookies if you allow them, and today we use none.
            </p>
            <div className="cookie-banner__actions">
              <Button disabled={saving} onClick={() => void save(ACCEPT_ALL)}>
                Accept All
              </Button>
              <Button variant="outline" disabled={saving} onClick={() => void save(ESSENTIAL_ONLY)}>
                Essential Only
              </Button>
              <Button variant="ghost" disabled={saving} aria-expanded={false} onClick={() => setView('details')}>
                Customize
              </Button>
            </div>
          </>
        ) : (
          <>
            <ul className="cookie-banner__categories">
              {categories.map((category) => (
                <li key={category.key} className="cookie-banner__category">
                  <div className="cookie-banner__category-text">
                    <Label htmlFor={`cookie-${category.key}`}>{category.label}</Label>
                    <p className="text-muted" id={`cookie-${category.key}-description`}>
                      {category.description}
                    </p>
                  </div>
                  {category.key === 'necessary' ? (
                    <Switch id="cookie-necessary" checked disabled aria-describedby="cookie-necessary-description" />
                  ) : (
                    <Switch
                      id={`cookie-${category.key}`}
                      checked={choice[category.key]}
                      disabled={saving}
                      aria-describedby={`cookie-${category.key}-description`}
                      onCheckedChange={(checked) => setChoice((previous) => ({ ...previous, [category.key]: checked }))}
                    />
                  )}
                </li>
              ))}
            </ul>
            <div className="cookie-banner__actions">
              <Button disabled={saving} onClick={() => void save(choice)}>
                Save Preferences
              </Button>
              <Button variant="outline" disabled={saving} aria-expanded onClick={() => setView('summary')}>
                Back
              </Button>
            </div>
          </>
        )}
      </div>
    </section>
  );
}
