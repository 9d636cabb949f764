import { headTagsFor } from './pageMeta';

describe('headTagsFor', () => {
  it('names the description, canonical link, robots and the social tags', () => {
    const tags = headTagsFor({
      title: 'FAQ | Haven - Mental Health Support',
      description: 'Answers.',
      canonical: 'https://haven.example/faq',
    });
    const byKey = Object.fromEntries(tags.map((tag) => [tag.key, tag.value]));
    expect(byKey).toMatchObject({
      description: 'Answers.',
      robots: 'index, follow',
      canonical: 'https://haven.example/faq',
      'og:title': 'FAQ | Haven - Mental Health Support',
      'og:url': 'https://haven.example/faq',
      'twitter:card': 'summary',
    });
  });
});
