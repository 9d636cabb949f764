/**
 * The user-management page's rules, pure: the status badge, the verified percentage, the filter's choices,
 * the empty states and the delete toasts. docs/decisions/admin/admin-user-list.md.
 */
import type { BadgeVariant } from '../../ui/Badge';

export interface BadgeUser {
  emailVerifiedAt?: string | null;
  subscriptionStatus: string;
}

/**
 * Unverified when the address is not verified, whatever the subscription; otherwise Active, Trial or Expired
 * for billing's active, trialing and trial_expired, "No subscription" for none, and any other status as it is.
 */
export function userBadge(user: BadgeUser): { label: string; variant: BadgeVariant } {
  if (!user.emailVerifiedAt) return { label: 'Unverified', variant: 'outline' };
  switch (user.subscriptionStatus) {
    case 'active':
      return { label: 'Active', variant: 'success' };
    case 'trialing':
      return { label: 'Trial', variant: 'info' };
    case 'trial_expired':
      return { label: 'Expired', variant: 'destructive' };
    case 'none':
      return { label: 'No subscription', variant: 'secondary' };
    default:
      return { label: user.subscriptionStatus, variant: 'secondary' };
  }
}

/** "66.7%": verified users as a share of all, to one decimal; no users is 0.0%. */
export function verifiedPercentage(verified: number, total: number): string {
  if (total <= 0) return '0.0%';
  return `${((verified / total) * 100).toFixed(1)}%`;
}

/** The status filter: what the page shows, what the server is asked. */
export const STATUS_FILTERS = [
  { value: 'all', label: 'All Users' },
  { value: 'verified', label: 'Verified' },
  { value: 'unverified', label: 'Unverified' },
  { value: 'active', label: 'Active Subscription' },
  { value: 'trial', label: 'Trial' },
  { value: 'expired', label: 'Expired' },
] as const;

export type StatusFilter = (typeof STATUS_FILTERS)[number]['value'];

export const PAGE_SIZE = 25;
/** How long the search waits after the last key before asking the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/** No accounts at all, or none that match what the admin typed or chose. */
export function emptyStateText(search: string, status: StatusFilter): string {
  return search.trim() === '' && status === 'all' ? 'No users found.' : 'No users match your search criteria.';
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

const providerLabels: Record<string, string> = { email: 'Email', google: 'Google', oidc: 'Single Sign-On' };

export function authProviderLabel(provider: string): string {
  return providerLabels[provider] ?? provider;
}

export interface ToastText {
  title: string;
  description: string;
}

/** After `DELETE /api/admin/users/{id}`. */
export function deletedToast(reply: { stripeCleanup: boolean; message: string }): ToastText {
  const cleanup = reply.stripeCleanup ? reply.message : 'No Stripe subscription to cancel';
  return { title: 'User deleted', description: `User has been permanently deleted. ${cleanup}`.trim() };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** After `POST /api/admin/users/bulk-delete`. */
export function bulkDeletedToast(reply: { deleted: number; stripeCleanup: number }): ToastText {
  const cancelled =
    reply.stripeCleanup > 0
      ? `, ${plural(reply.stripeCleanup, 'Stripe subscription', 'Stripe subscriptions')} cancelled`
      : '';
  return {
    title: 'Bulk delete completed',
    description: `${plural(reply.deleted, 'user', 'users')} deleted successfully${cancelled}`,
  };
}
