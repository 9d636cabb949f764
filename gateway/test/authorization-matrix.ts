/**
 * Who may call what: every public GraphQL root field and every REST route, against six people, with what each
 * of them must meet. Read by authorization-matrix.int.test.ts, which tries every cell; an operation without a
 * row here fails that test. Each row follows the product's roles and the access policy
 * (services/platform/src/access.ts): public, signed in, premium (an active or trialing subscription), or admin.
 */

/** The people a cell is tried as, in the order of every row below. */
export const personas = ['signed out', 'unverified', 'trial ended', 'premium', 'another member', 'admin'] as const;
export type Persona = (typeof personas)[number];

/**
 * What the caller meets. Nothing in Haven waits on a verified address (an unverified member may sign
 * in and start the trial; verification only opens the admin role), so there is no "needs verification".
 */
export type Outcome =
  /** The operation does what was asked (2xx; GraphQL data without errors). */
  | 'allowed'
  /** Answered without an error, with nothing in it: `me` for a visitor. */
  | 'answers-null'
  /** 401 / UNAUTHENTICATED: sign in first. */
  | 'unauthenticated'
  /** 403 / FORBIDDEN without a subscription reason: admin only, or somebody else's account. */
  | 'forbidden'
  /** 403 with reason `no_subscription`: the paid features, to someone who never subscribed. */
  | 'needs-subscription'
  /** 403 with reason `trial_expired`: the paid features, after the free trial ended. */
  | 'trial-ended'
  /** 404 / NOT_FOUND: nothing of the caller's by that id (another member's quote or card setup). */
  | 'not-found'
  /** 409 / CONFLICT: the caller's own state rules it out (a second subscription). */
  | 'conflict';

type Row = readonly [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];

/**
 * "another member" is a premium member given the premium member's ids (quote, user, card setup), so a cell
 * that would leak across accounts shows here. The admin has no subscription of their own.
 */
// prettier-ignore
export const expectedOutcomes: Record<string, Row> = {
  //                                      signed out         unverified             trial ended       premium       another member  admin
  // Public (no sign-in): configuration, help lines, a deletion's progress by its id, the cookie choice.
  'query paymentConfig':                  ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'query gdprConfig':                     ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'query cookieConsent':                  ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'query accountDeletion':                ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'query supportResources':               ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  // The caller themself; another account only for its owner or the admin.
  'query me':                             ['answers-null',    'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'query user':                           ['unauthenticated', 'forbidden',           'forbidden',      'allowed',    'forbidden',    'allowed'],
  // Admin only.
  'query pendingAccountDeletions':        ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'query newsletterStats':                ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'query newsletterSubscribersExport':    ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'query newsletterAudience':             ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'query newsletterPreview':              ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'query adminUsers':                     ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'query adminUserStats':                 ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  // The calendar's marks and the year view: the person's own check-ins, a paid feature like the quotes they come from.
  'query checkInDays':                    ['unauthenticated', 'needs-subscription',  'trial-ended',    'allowed',    'allowed',      'needs-subscription'],
  'query yearInMoods':                    ['unauthenticated', 'needs-subscription',  'trial-ended',    'allowed',    'allowed',      'needs-subscription'],

  // Billing: signed in, never premium (a lapsed member must be able to subscribe again); one subscription each
  // (asking again after one's setup started it answers that one).
  'mutation createSetupIntent':           ['unauthenticated', 'allowed',             'allowed',        'conflict',   'conflict',     'allowed'],
  'mutation confirmLocalSetup':           ['unauthenticated', 'allowed',             'allowed',        'allowed',    'not-found',    'allowed'],
  // The bank's check of a setup waiting for it: the premium member's own setup waits for none any more.
  'mutation authenticateLocalSetup':      ['unauthenticated', 'allowed',             'allowed',        'conflict',   'not-found',    'allowed'],
  'mutation createSubscriptionAfterSetup':['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation cancelSubscription':          ['unauthenticated', 'not-found',           'not-found',      'allowed',    'allowed',      'not-found'],
  'mutation reactivateSubscription':      ['unauthenticated', 'not-found',           'not-found',      'allowed',    'allowed',      'not-found'],
  // Changing the card: one's own running subscription's (a lapsed trial has none to change), never premium.
  'mutation updatePaymentMethodAfterSetup':['unauthenticated','not-found',           'not-found',      'allowed',    'allowed',      'not-found'],
  // Consent and data rights: anyone for cookies; one's own account for deletion, never premium.
  'mutation saveCookieConsent':           ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation deleteAccount':               ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation adminDeleteUser':             ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'mutation adminBulkDeleteUsers':        ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  // Newsletter: visitors sign up, confirm and leave by link or address; only the admin sends.
  'mutation subscribeToNewsletter':       ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation confirmNewsletterSubscription':['allowed',        'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation unsubscribeFromNewsletterByToken':['allowed',     'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation unsubscribeFromNewsletterByEmail':['allowed',     'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation sendNewsletter':              ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'mutation sendTestNewsletter':          ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'mutation updateEmailPreferences':      ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  // An e-mail's stop link: anyone holding it (the link is the proof).
  'mutation stopEmailsByLink':            ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  // Check-ins and quotes: premium; someone else's quote is not found.
  'mutation generateQuote':               ['unauthenticated', 'needs-subscription',  'trial-ended',    'allowed',    'allowed',      'needs-subscription'],
  'mutation setQuoteFavorite':            ['unauthenticated', 'needs-subscription',  'trial-ended',    'allowed',    'not-found',    'needs-subscription'],
  'mutation updatePrivacySettings':       ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  // One's own entries are one's own to change or delete, subscribed or not; anyone else's entry is not found, the admin's too.
  'mutation deleteEntry':                 ['unauthenticated', 'not-found',           'not-found',      'allowed',    'not-found',    'not-found'],
  'mutation editEntry':                   ['unauthenticated', 'not-found',           'not-found',      'allowed',    'not-found',    'not-found'],
  // Sign-up, sign-in and links from e-mails: anyone (the link or the password is the proof).
  'mutation register':                    ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation login':                       ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation verifyEmail':                 ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation resendVerification':          ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation requestPasswordReset':        ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation resetPassword':               ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation startFederatedSignIn':        ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation completeFederatedSignIn':     ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation linkSignInMethod':            ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  // Signing out is always possible ("true even when there was none"); the rest is one's own account.
  'mutation logout':                      ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation signOutEverywhere':           ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation saveSafetyPlan':              ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation updateProfile':               ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation changePassword':              ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'mutation requestEmailChange':          ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],

  // The REST facade: the same rules under the /api paths.
  'POST /api/auth/register':              ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/auth/login':                 ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'GET /api/auth/verify-email':           ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/auth/resend-verification':   ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/auth/forgot-password':       ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/auth/reset-password':        ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/auth/link-account':          ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'GET /api/user':                        ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  // Settings' counts are never premium; check-ins, quotes and analytics are.
  'GET /api/user/stats':                  ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/quotes/generate':            ['unauthenticated', 'needs-subscription',  'trial-ended',    'allowed',    'allowed',      'needs-subscription'],
  'GET /api/quotes/recent':               ['unauthenticated', 'needs-subscription',  'trial-ended',    'allowed',    'allowed',      'needs-subscription'],
  'GET /api/quotes/favorites':            ['unauthenticated', 'needs-subscription',  'trial-ended',    'allowed',    'allowed',      'needs-subscription'],
  'PATCH /api/quotes/:id/favorite':       ['unauthenticated', 'needs-subscription',  'trial-ended',    'allowed',    'not-found',    'needs-subscription'],
  'GET /api/user/analytics':              ['unauthenticated', 'needs-subscription',  'trial-ended',    'allowed',    'allowed',      'needs-subscription'],
  'GET /api/subscription-status':         ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/create-setup-intent':        ['unauthenticated', 'allowed',             'allowed',        'conflict',   'conflict',     'allowed'],
  'POST /api/local-payments/confirm-setup':['unauthenticated','allowed',             'allowed',        'allowed',    'not-found',    'allowed'],
  'POST /api/local-payments/authenticate-setup':['unauthenticated','allowed',         'allowed',        'conflict',   'not-found',    'allowed'],
  'POST /api/create-subscription-after-setup':['unauthenticated','allowed',          'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/subscription/cancel':        ['unauthenticated', 'not-found',           'not-found',      'allowed',    'allowed',      'not-found'],
  'POST /api/subscription/reactivate':    ['unauthenticated', 'not-found',           'not-found',      'allowed',    'allowed',      'not-found'],
  'GET /api/gdpr/config':                 ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'GET /api/user/data-export':            ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'DELETE /api/user/delete-account':      ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'GET /api/user/privacy-settings':       ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/user/privacy-settings':      ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'GET /api/gdpr/cookie-consent':         ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/gdpr/cookie-consent':        ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/newsletter/subscribe':       ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'GET /api/newsletter/confirm':          ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'GET /api/newsletter/unsubscribe':      ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/newsletter/unsubscribe':     ['allowed',         'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'GET /api/admin/newsletter/stats':      ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'POST /api/newsletter/send':            ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'POST /api/admin/newsletter/test':      ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'GET /api/admin/newsletter/audience':   ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'GET /api/admin/export-subscribers':    ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'GET /api/user/email-preferences':      ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'POST /api/user/email-preferences':     ['unauthenticated', 'allowed',             'allowed',        'allowed',    'allowed',      'allowed'],
  'DELETE /api/admin/users/:id':          ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'POST /api/admin/users/bulk-delete':    ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'GET /api/admin/users':                 ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
  'GET /api/admin/user-stats':            ['unauthenticated', 'forbidden',           'forbidden',      'forbidden',  'forbidden',    'allowed'],
};
