import { escapeHtml } from '../src/domain/email-parts';
import { renderVerificationEmail, verificationLink } from '../src/domain/verification-email';

const base = { productName: 'Haven', appUrl: 'https://haven.example.com', token: 'abc_DEF-123', firstName: 'Dana' };

describe('verificationLink', () => {
  it('points at /verify-email on the app, with the token in the query string', () => {
    expect(verificationLink('https://haven.example.com', 'abc_DEF-123')).toBe(
      'https://haven.example.com/verify-email?token=abc_DEF-123',
    );
  });

  it('does not double the slash when the app URL ends with one', () => {
    expect(verificationLink('https://haven.example.com/', 'tok')).toBe(
      'https://haven.example.com/verify-email?token=tok',
    );
  });

  it('keeps the path of an app served below the root, with or without a trailing slash', () => {
    expect(verificationLink('https://example.com/haven', 'tok')).toBe(
      'https://example.com/haven/verify-email?token=tok',
    );
    expect(verificationLink('https://example.com/haven/', 'tok')).toBe(
      'https://example.com/haven/verify-email?token=tok',
    );
  });

  it('keeps the port of a local app', () => {
    expect(verificationLink('http://localhost:4000', 'tok')).toBe('http://localhost:4000/verify-email?token=tok');
  });

  it('URL-encodes the token so it survives the trip intact', () => {
    const token = 'a b/c+d=e&f?g#h%';
    const link = verificationLink('https://haven.example.com', token);
    const encoded = link.split('?token=')[1];
    // Nothing in the value can end it, start another parameter or be read as a path; "+" itself is escaped.
    expect(encoded).not.toMatch(/[ /=&?#]/);
    expect(encoded).toContain('%2B');
    const parsed = new URL(link);
    expect(parsed.pathname).toBe('/verify-email');
    expect(parsed.searchParams.get('token')).toBe(token);
    expect([...parsed.searchParams.keys()]).toEqual(['token']);
  });
});

describe('renderVerificationEmail', () => {
  const link = 'https://haven.example.com/verify-email?token=abc_DEF-123';

  it('names the product in the subject', () => {
    expect(renderVerificationEmail(base).subject).toBe('Verify your email for Haven');
  });

  it('greets the user by first name, or plainly without one', () => {
    const named = renderVerificationEmail(base);
    expect(named.text.split('\n')[0]).toBe('Hi Dana,');
    expect(named.html).toContain('<p>Hi Dana,</p>');

    const anonymous = renderVerificationEmail({ ...base, firstName: '' });
    expect(anonymous.text.split('\n')[0]).toBe('Hi,');
    expect(anonymous.html).toContain('<p>Hi,</p>');
    expect(anonymous.text).not.toContain('undefined');
    expect(anonymous.html).not.toContain('undefined');
  });

  it('carries the link in both the text and the HTML part', () => {
    const { text, html } = renderVerificationEmail(base);
    expect(text.split('\n')).toContain(link);
    expect(html).toContain(`href="${link}"`);
  });

  it('escapes the link in HTML when it holds an ampersand', () => {
    const { text, html } = renderVerificationEmail({ ...base, token: 'a&b' });
    expect(text).toContain('verify-email?token=a%26b');
    // URLSearchParams already encodes "&" in the value; nothing raw reaches the attribute.
    expect(html).not.toMatch(/href="[^"]*&(?!amp;)[^"]*"/);
  });

  it('escapes a hostile first name in HTML (no script tag reaches the mail client)', () => {
    const hostile = '<script>alert("x")</script>';
    const { html, text } = renderVerificationEmail({ ...base, firstName: hostile });
    expect(html).not.toContain('<script>');
    expect(html).toContain('Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;,');
    // The plain-text part is not HTML: it shows the name as typed.
    expect(text).toContain(`Hi ${hostile},`);
  });

  it('tells the user how long the link is valid', () => {
    const { text, html } = renderVerificationEmail(base);
    expect(text).toContain('The link is valid for 24 hours.');
    expect(html).toContain('The link is valid for 24 hours.');
  });

  it('uses the configured product name everywhere (rebrandable)', () => {
    const { subject, text, html } = renderVerificationEmail({ ...base, productName: 'Calm & Co' });
    expect(subject).toBe('Verify your email for Calm & Co');
    expect(text).toContain('Thanks for joining Calm & Co.');
    expect(html).toContain('Thanks for joining Calm &amp; Co.');
    expect(`${text}${html}`).not.toContain('Haven');
  });
});

it('asks the new address of an existing account to confirm it, without welcoming anyone', () => {
  const { text, html } = renderVerificationEmail({ ...base, kind: 'verify-new-email' });
  expect(text).toContain('You asked to use this address for your Haven account.');
  expect(text).toContain('the account keeps its current address');
  expect(`${text}${html}`).not.toContain('Thanks for joining');
});

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('leaves other text, including non-ASCII, untouched', () => {
    expect(escapeHtml('Zoë – 😊')).toBe('Zoë – 😊');
  });
});
