/** How a user is named and pictured in the UI. Pure. */
import { formatLocalDate, parseIsoDate } from '../../lib/dates';

export interface UserNameLike {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/** Full name, else first name, else "User". */
export function displayName(user: UserNameLike): string {
  const first = user.firstName?.trim() ?? '';
  const last = user.lastName?.trim() ?? '';
  if (first && last) return `${first} ${last}`;
  if (first) return first;
  return 'User';
}

/** The avatar's fallback letter: first name, else e-mail, else "U". Upper case. */
export function avatarInitial(user: UserNameLike): string {
  const source = user.firstName?.trim() || user.email?.trim() || 'U';
  return source.charAt(0).toUpperCase();
}

/** "Member since" value: the local date of createdAt, or "Unknown". */
export function memberSince(createdAt: string | null | undefined): string {
  const date = parseIsoDate(createdAt);
  return date ? formatLocalDate(date) : 'Unknown';
}
