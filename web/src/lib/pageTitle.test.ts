import { BRAND } from '../brand';
import { formatPageTitle, TITLE_SUFFIX } from './pageTitle';

describe('formatPageTitle', () => {
  it('ends every title with the product name and "Mental Health Support"', () => {
    expect(BRAND.name).toBe('Haven');
    expect(TITLE_SUFFIX).toBe('Haven - Mental Health Support');
    expect(formatPageTitle('Sign In')).toBe('Sign In | Haven - Mental Health Support');
    expect(formatPageTitle('404 Page Not Found')).toBe('404 Page Not Found | Haven - Mental Health Support');
  });

  it('is just the suffix without a page name', () => {
    expect(formatPageTitle()).toBe('Haven - Mental Health Support');
    expect(formatPageTitle('  ')).toBe('Haven - Mental Health Support');
  });
});
