/**
 * The route table: every page of the web app, once, with its path, grouped by who may open it, and beside it how
 * the build prerenders the pages a visitor may open first. Pure data, read without React: the route gating
 * (routeGating.ts) derives its path tables from it, the prerender step (prerender/entry.tsx) its pages, and the map
 * of page components (app/pages.tsx) is typed by its keys, so the compiler asks for a new page's loader.
 *
 * Grouped rather than one record per page because the table is in the first page's bundle, whose script budget
 * (prerender/budget.ts) has few bytes to spare: a page's group says who may open it and whether it is drawn inside
 * the signed-in header and bottom navigation (every page of the signed-in groups is, no other is:
 * app/SessionRoutes.tsx).
 */

export const ROUTES = {
  /** `/` for a visitor who is not signed in (signed in, `/` is the dashboard). */
  signedOut: {
    landing: '/',
  },
  /** Anyone, whatever the session. */
  public: {
    about: '/about',
    terms: '/terms',
    privacy: '/privacy',
    faq: '/faq',
    // "Need help now?": helplines, never behind sign-in or the paywall.
    help: '/help',
    auth: '/auth',
    verifyEmail: '/verify-email',
    confirmNewsletter: '/confirm-newsletter',
    unsubscribeNewsletter: '/unsubscribe-newsletter',
    unsubscribe: '/unsubscribe',
    // An e-mail's stop link: works signed out, as the e-mail promises.
    stopEmails: '/stop-emails',
    // The person's safety plan: it says how to write one when signed out, and opens from this device's copy offline.
    safetyPlan: '/safety-plan',
    // Account care: reached signed out, from the sign-in screen and the e-mailed link.
    forgotPassword: '/forgot-password',
    resetPassword: '/reset-password',
  },
  /** Signed in with a subscription set up: others are sent to sign-in, or to finish the subscription first. */
  signedIn: {
    dashboard: '/',
    sliders: '/sliders',
    favorites: '/favorites',
    progress: '/progress',
    analytics: '/analytics',
    emailPreferences: '/email-preferences',
  },
  /** Signed in, also while the subscription is not set up yet. */
  setup: {
    settings: '/settings',
    subscription: '/subscription',
    // The local test-mode provider's stand-in for the bank's check of a card (Stripe hosts its own).
    localAuthenticate: '/local-payments/authenticate',
    adminNewsletter: '/admin/newsletter',
    adminUsers: '/admin/users',
  },
} as const satisfies Record<string, Record<string, `/${string}`>>;

/** Who may open a page: its group in the table. */
export type Access = keyof typeof ROUTES;

export type PageKey = { [A in Access]: keyof (typeof ROUTES)[A] }[Access];

/** The pages a visitor without a session may open. */
export type SignedOutPageKey = keyof (typeof ROUTES)['signedOut'] | keyof (typeof ROUTES)['public'];

/** How the build prerenders a page a visitor may open first (prerender/entry.tsx). */
export interface Prerender {
  /** Its file under dist/pages; for a page prerendered once per country, the folder of `<code>.html` and `none.html`. */
  file: string;
  /** The module that draws it, as Vite's manifest names it, when the page is its own bundle (preloaded by its HTML). */
  module?: string;
  /** Once for every country in the crisis dataset and once for none (the gateway picks by the visitor's country). */
  byCountry?: true;
  /** Of no use without its script: the note that Haven needs JavaScript stays. */
  needsScript?: true;
  /** Kept out of search engines and the sitemap. */
  noindex?: true;
}

/**
 * The pages the build prerenders, in this order: pages a visitor without a session may open. Only the build reads
 * it, so the browser's bundles leave it out.
 */
export const PRERENDER: Readonly<Partial<Record<SignedOutPageKey, Prerender>>> = {
  landing: { file: 'landing.html', module: 'src/areas/public/LandingPage.tsx' },
  about: { file: 'about.html', module: 'src/areas/public/AboutPage.tsx' },
  terms: { file: 'terms.html', module: 'src/areas/public/TermsPage.tsx' },
  privacy: { file: 'privacy.html', module: 'src/areas/public/PrivacyPage.tsx' },
  faq: { file: 'faq.html', module: 'src/areas/public/FaqPage.tsx' },
  // Sign-in needs Apollo and the account area (about 125 kB gzipped, over the first page's budget): none of it is
  // preloaded. The HTML shows the form at once, its controls disabled until that code has arrived and adopted it.
  auth: { file: 'auth.html', needsScript: true },
  // Like sign-in, and no page for search engines: a link without its token is of use to no one.
  verifyEmail: { file: 'verify-email.html', needsScript: true, noindex: true },
  unsubscribeNewsletter: { file: 'unsubscribe-newsletter.html', needsScript: true, noindex: true },
  // The fastest page of all, its own bundle: once for every country, that country's lines first.
  help: { file: 'help', module: 'src/areas/checkin/HelpPage.tsx', byCountry: true },
};
