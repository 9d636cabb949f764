import { testLinkKey } from '../../../../tools/testing/haven';

/** Where a test's e-mails point and how they sign their links: the test Haven's own, so its pages accept them. */
export const testLinks = {
  appUrl: 'http://localhost:4000',
  productName: 'Haven',
  linkKey: testLinkKey,
} as const;
