import { BRAND } from '../brand';

/**
 * Page titles end with the product name and 'Mental Health Support'.
 * formatPageTitle('Sign In') === 'Sign In | Haven - Mental Health Support'
 */
export const TITLE_SUFFIX = `${BRAND.name} - ${BRAND.tagline}`;

export function formatPageTitle(page?: string): string {
  const trimmed = page?.trim();
  return trimmed ? `${trimmed} | ${TITLE_SUFFIX}` : TITLE_SUFFIX;
}
