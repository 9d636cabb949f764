import { faqJsonLd, hashAfterToggle, serializeJsonLd, slugFromHash, toggleEntry } from './faq';
import { FAQ_ENTRIES, FAQ_GROUPS } from './faqEntries';

const SPEC_SLUGS = [
  [
    'what-is-haven',
    'first-emotional-check-in',
    'emotional-dimensions',
    'personalized-support',
    'mental-health-professional',
  ],
  ['free-trial-included', 'upgrade-premium-plan', 'cancel-subscription', 'billing-plan-details', 'refund-policy'],
  [
    'daily-check-in-habits',
    'mood-tracking-insights',
    'save-supportive-messages',
    'share-quote-message',
    'streak-tracking',
  ],
  [
    'emotional-data-privacy',
    'data-collection-export',
    'data-preferences-consent',
    'gdpr-compliant',
    'login-protection',
  ],
  [
    'personal-wellness-library',
    'ai-generated-vs-generic',
    'check-in-time-context',
    'mood-patterns-scoring',
    'dark-mode-theming',
  ],
  [
    'installable-app',
    'supported-devices-browsers',
    'verification-email-issues',
    'report-bug-get-help',
    'deep-link-entries',
  ],
];

describe('FAQ entries', () => {
  it('are 30 in the spec’s six groups of five, with exactly its slugs', () => {
    expect(FAQ_GROUPS.map((group) => group.title)).toEqual([
      'Getting Started',
      'Account & Subscription',
      'Using Haven',
      'Data & Privacy',
      'Features & Enhancements',
      'Technical & Support',
    ]);
    expect(FAQ_GROUPS.map((group) => group.entries.map((entry) => entry.slug))).toEqual(SPEC_SLUGS);
    expect(FAQ_ENTRIES).toHaveLength(30);
  });

  it('each has a question and an answer', () => {
    for (const entry of FAQ_ENTRIES) {
      expect(entry.question.trim()).not.toBe('');
      expect(entry.answer.join('').trim().length).toBeGreaterThan(40);
    }
  });
});

describe('opening entries', () => {
  it('keeps one open by default', () => {
    const open = toggleEntry(new Set(['refund-policy']), 'streak-tracking', false);
    expect([...open]).toEqual(['streak-tracking']);
  });

  it('keeps several open in multi-open mode, and closes the one clicked again', () => {
    const open = toggleEntry(new Set(['refund-policy']), 'streak-tracking', true);
    expect([...open].sort()).toEqual(['refund-policy', 'streak-tracking']);
    expect([...toggleEntry(open, 'refund-policy', true)]).toEqual(['streak-tracking']);
  });

  it('puts the opened slug in the hash and clears it on closing', () => {
    expect(hashAfterToggle(new Set(['refund-policy']), 'refund-policy')).toBe('#refund-policy');
    expect(hashAfterToggle(new Set(), 'refund-policy')).toBe('');
  });

  it('reads only hashes that name an entry', () => {
    expect(slugFromHash('#refund-policy', FAQ_ENTRIES)).toBe('refund-policy');
    expect(slugFromHash('#nothing-here', FAQ_ENTRIES)).toBeNull();
    expect(slugFromHash('', FAQ_ENTRIES)).toBeNull();
  });
});

describe('structured data', () => {
  it('is a schema.org FAQPage with every question and answer', () => {
    const data = faqJsonLd(FAQ_ENTRIES);
    expect(data['@type']).toBe('FAQPage');
    expect(data.mainEntity).toHaveLength(30);
    expect(data.mainEntity[0]).toEqual({
      '@type': 'Question',
      name: FAQ_ENTRIES[0]?.question,
      acceptedAnswer: { '@type': 'Answer', text: FAQ_ENTRIES[0]?.answer.join('\n\n') },
    });
  });

  it('cannot close its script element', () => {
    const text = serializeJsonLd({ name: '</script><script>alert(1)</script>' });
    expect(text).not.toContain('</script>');
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script>' });
  });
});
