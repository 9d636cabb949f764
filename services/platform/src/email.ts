/**
 * E-mail addresses as a mail server accepts them, one spelling per mailbox: every service that stores
 * or looks up an address goes through canonicalEmail, so one visible address is one account.
 */
import { domainToASCII } from 'node:url';
import isEmail from 'validator/lib/isEmail';
import { invalidEmailMessage } from '@haven/domain';

export const emailMaxLength = 254;

export type CanonicalEmail = { ok: true; address: string } | { ok: false; message: string };

// Format, bidi and control characters, separators and the fillers that render as nothing.
const invisible = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\u115F\u180E\u3164\uFFA0]|\u1160|\u17B4|\u17B5|\u034F/u;

/** Letter scripts that are told apart; Han, Hiragana and Katakana are written together, so count as one. */
const scriptGroups: Array<[string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['CJK', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u],
];

/** True when one part (the local part, or one domain label) mixes letters of different scripts. */
function mixesScripts(part: string): boolean {
  const seen = new Set<string>();
  for (const char of part) {
    if (!/\p{L}/u.test(char)) continue;
    const group = scriptGroups.find(([, pattern]) => pattern.test(char))?.[0] ?? 'Other';
    seen.add(group);
    if (seen.size > 1) return true;
  }
  return false;
}

/**
 * Validates an address and returns its canonical form: Unicode NFC, the domain in ASCII (IDN to
 * punycode) without a trailing dot, all in lower case. Addresses with invisible characters, compatibility
 * look-alikes (full-width letters, ligatures) or mixed-script look-alikes are refused, not folded: the
 * person sees what they typed was not what it seemed.
 */
export function canonicalEmail(raw: string | null | undefined): CanonicalEmail {
  const typed = (raw ?? '').trim();
  if (!typed) return { ok: false, message: 'Email is required' };
  if (invisible.test(typed)) {
    return { ok: false, message: 'Email contains a space or an invisible character. Please type it again.' };
  }
  const composed = typed.normalize('NFC');
  if (composed.normalize('NFKC') !== composed) {
    return {
      ok: false,
      message: 'Email contains look-alike characters (such as full-width letters). Please type it with ordinary ones.',
    };
  }
  const at = composed.lastIndexOf('@');
  if (at <= 0 || at === composed.length - 1) return { ok: false, message: invalidEmailMessage };
  const local = composed.slice(0, at).toLowerCase();
  const domain = composed.slice(at + 1).replace(/\.$/, '');
  if ([local, ...domain.split('.')].some(mixesScripts)) {
    return {
      ok: false,
      message:
        'Email mixes letters from different alphabets (for example a Cyrillic “а” among Latin letters). Please type it again.',
    };
  }
  const asciiDomain = domainToASCII(domain).toLowerCase();
  const address = `${local}@${asciiDomain}`;
  if (
    !asciiDomain ||
    local.startsWith('"') ||
    address.length > emailMaxLength ||
    !isEmail(address, { allow_utf8_local_part: true, require_tld: true, allow_ip_domain: false })
  ) {
    return { ok: false, message: invalidEmailMessage };
  }
  return { ok: true, address };
}
