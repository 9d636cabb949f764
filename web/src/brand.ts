/**
 * The product's identity, in one place so it can be rebranded. Everything user-facing
 * that names the product reads from here: page titles, index.html (via vite.config.ts),
 * the web manifest (src/manifest.ts), the pages.
 */
const name = 'Haven';

export const BRAND = {
  name,
  /** Page titles end with "<name> - <tagline>". */
  tagline: 'Mental Health Support',
  /** One-line description (HTML meta description, web manifest). */
  description: `${name} is your daily emotional wellness companion: rate how you feel and receive a personalised, supportive message.`,
  /** How the hosted-platform sign-in (/api/login) is named on its button: "Continue with …". */
  hostedSignInName: 'Single Sign-On',
  /**
   * Where people write to a person at Haven: every contact-support link, the footer and legal pages, the
   * cancellation e-mail, the newsletter confirmation's error state.
   */
  supportEmail: 'support@haven.app',
} as const;
