/**
 * The admin's user list (`GET /api/admin/users`): which query parameters it takes, and the filters they
 * become. Pure: the resolver runs the filters (resolvers/admin-users.ts). docs/decisions/admin/admin-user-list.md.
 */

/** The status filter of the page: All Users, Verified, Unverified, Active Subscription, Trial, Expired. */
export const adminUserStatuses = ['all', 'verified', 'unverified', 'active', 'trial', 'expired'] as const;
export type AdminUserStatus = (typeof adminUserStatuses)[number];

export const defaultPageSize = 25;
export const maxPageSize = 100;
/** Long enough for any address or full name; a longer text is a mistake or an attack on the scan. */
export const maxSearchLength = 100;
/** "ada lovelace example" is three words, each of which must match one of the fields. */
export const maxSearchWords = 5;

export interface AdminUserQuery {
  /** Lower-cased words of the search, each matched as a literal piece of e-mail, first or last name. */
  words: string[];
  status: AdminUserStatus;
  page: number;
  pageSize: number;
}

export interface QueryProblem {
  field: 'q' | 'status' | 'page' | 'pageSize';
  message: string;
}

export type ParsedAdminUserQuery = { ok: true; value: AdminUserQuery } | { ok: false; problems: QueryProblem[] };

export interface AdminUserQueryInput {
  q?: string | null;
  status?: string | null;
  page?: number | null;
  pageSize?: number | null;
}

/** Absent parameters take their defaults; anything present must be right, or it is named in a problem. */
export function parseAdminUserQuery(input: AdminUserQueryInput): ParsedAdminUserQuery {
  const problems: QueryProblem[] = [];
  const q = (input.q ?? '').trim();
  if (q.length > maxSearchLength) {
    problems.push({ field: 'q', message: `Search must be at most ${maxSearchLength} characters` });
  }
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length > maxSearchWords) {
    problems.push({ field: 'q', message: `Search must be at most ${maxSearchWords} words` });
  }
  const status = input.status ?? 'all';
  if (!(adminUserStatuses as readonly string[]).includes(status)) {
    problems.push({ field: 'status', message: `Status must be one of ${adminUserStatuses.join(', ')}` });
  }
  const page = input.page ?? 1;
  if (!Number.isInteger(page) || page < 1) {
    problems.push({ field: 'page', message: 'Page must be a whole number from 1' });
  }
  const pageSize = input.pageSize ?? defaultPageSize;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > maxPageSize) {
    problems.push({ field: 'pageSize', message: `Page size must be a whole number from 1 to ${maxPageSize}` });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { words, status: status as AdminUserStatus, page, pageSize } };
}

/** The subscription statuses behind the billing filters (billing's own names; see docs/events.md). */
export const subscriptionStatusOfFilter = {
  active: 'active',
  trial: 'trialing',
  expired: 'trial_expired',
} as const;

/** A user who never subscribed has no status of billing's; the list shows billing's word for that. */
export const noSubscription = 'none';

/** Makes a typed text a literal inside a regular expression (no pattern, no catastrophic backtracking). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type Filter = Record<string, unknown>;

/** The database filter of a query: the status, and every word found in the e-mail or a name. */
export function adminUserFilter(query: Pick<AdminUserQuery, 'words' | 'status'>): Filter {
  const parts: Filter[] = [];
  if (query.status === 'verified') parts.push({ emailVerifiedAt: { $ne: null } });
  if (query.status === 'unverified') parts.push({ emailVerifiedAt: null });
  if (query.status === 'active' || query.status === 'trial' || query.status === 'expired') {
    parts.push({ subscriptionStatus: subscriptionStatusOfFilter[query.status] });
  }
  for (const word of query.words) {
    const literal = escapeRegExp(word);
    parts.push({
      $or: [
        // Addresses are stored lower-cased (canonicalEmail), so the cheaper case-sensitive match suffices.
        { email: { $regex: literal } },
        { firstName: { $regex: literal, $options: 'i' } },
        { lastName: { $regex: literal, $options: 'i' } },
      ],
    });
  }
  if (parts.length === 0) return {};
  if (parts.length === 1) return parts[0]!;
  return { $and: parts };
}

/**
 * The total a page already gives: a page with fewer rows than its size is the last one (every page before it
 * is full), so the matching accounts need no count. Null when the page is full, or empty past the end.
 */
export function totalGivenByPage(page: number, pageSize: number, rowsOnPage: number): number | null {
  if (rowsOnPage >= pageSize) return null;
  if (rowsOnPage === 0 && page > 1) return null;
  return (page - 1) * pageSize + rowsOnPage;
}

/** Whether a query can be counted from the collection's size alone (no filter at all). */
export function isWholeList(query: Pick<AdminUserQuery, 'words' | 'status'>): boolean {
  return query.status === 'all' && query.words.length === 0;
}
