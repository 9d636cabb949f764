import { canonicalEmail } from '../src/email';

const accepted = (raw: string) => {
  const result = canonicalEmail(raw);
  if (!result.ok) throw new Error(`${raw} refused: ${result.message}`);
  return result.address;
};
const refusal = (raw: string) => {
  const result = canonicalEmail(raw);
  return result.ok ? `accepted as ${result.address}` : result.message;
};

describe('canonicalEmail', () => {
  it('gives every spelling of one mailbox the same canonical address', () => {
    const same = ['rene@example.com', ' René@Example.COM '].map(accepted);
    expect(same[0]).toBe('rene@example.com');
    expect(same[1]).toBe('rené@example.com');
    // precomposed é (U+00E9) and e + combining acute (U+0065 U+0301)
    expect(accepted('ren\u00e9@example.com')).toBe(accepted('rene\u0301@example.com'));
    // a trailing dot on the domain
    expect(accepted('ann@example.com.')).toBe('ann@example.com');
    // an IDN domain in Unicode and in punycode
    expect(accepted('ann@bücher.example')).toBe('ann@xn--bcher-kva.example');
    expect(accepted('ann@XN--BCHER-KVA.example')).toBe('ann@xn--bcher-kva.example');
  });

  it('refuses invisible characters, naming what is wrong', () => {
    expect(refusal('ann\u200b@example.com')).toMatch(/invisible character/);
    expect(refusal('ann@exam\u00adple.com')).toMatch(/invisible character/);
    expect(refusal('an n@example.com')).toMatch(/space or an invisible character/);
    expect(refusal('ann@example.com\u202e')).toMatch(/invisible character/);
  });

  it('refuses look-alikes instead of folding them', () => {
    expect(refusal('ａｎｎ@example.com')).toMatch(/full-width/); // full-width letters
    expect(refusal('ann@ｅxample.com')).toMatch(/full-width/);
    expect(refusal('\u0430nn@example.com')).toMatch(/different alphabets/); // Cyrillic а among Latin
    expect(refusal('ann@ex\u0430mple.com')).toMatch(/different alphabets/);
  });

  it('refuses what a mail server would refuse', () => {
    for (const raw of [
      '<script>alert(1)</script>@x.co',
      'ann@',
      '@example.com',
      'ann@example',
      'ann@@example.com',
      '"ab"@example.com',
      'ann@127.0.0.1',
      `${'a'.repeat(250)}@example.com`,
    ]) {
      expect(refusal(raw)).toBe('Email must be a valid email address');
    }
    expect(refusal('')).toBe('Email is required');
    expect(refusal('   ')).toBe('Email is required');
  });

  it('accepts ordinary addresses, including whole non-Latin ones', () => {
    expect(accepted('first.last+tag@sub.example.co.uk')).toBe('first.last+tag@sub.example.co.uk');
    expect(accepted('иван@пример.рф')).toBe('иван@xn--e1afmkfd.xn--p1ai');
  });
});
