/**
 * /admin/users: User Management. The four counts, search (e-mail, first or last name, any case), the status
 * filter, a page of accounts at a time with row checkboxes and select-all (the loaded page), and per-row and
 * bulk delete behind a confirmation. The server decides who is the admin (FORBIDDEN for anyone else), and
 * the page then shows the same alert as the newsletter page.
 */
import { useQuery } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { errorCode } from '../../graphql/errors';
import { AdminUserStatsDocument, AdminUsersDocument } from '../../graphql/operations.generated';
import { formatLocalDate, parseIsoDate } from '../../lib/dates';
import {
  isReauthRequired,
  reauthNotice,
  REAUTH_SIGN_IN_PATH,
  rememberReauth,
  takeReauth,
  type PendingAdminDeletion,
} from '../../lib/reauth';
import { usePageTitle } from '../../lib/usePageTitle';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Input } from '../../ui/Input';
import { Label } from '../../ui/Label';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import {
  PAGE_SIZE,
  SEARCH_DEBOUNCE_MS,
  STATUS_FILTERS,
  authProviderLabel,
  bulkDeletedToast,
  deletedToast,
  emptyStateText,
  pageCount,
  userBadge,
  verifiedPercentage,
  type StatusFilter,
} from './adminUsers';
import { bulkDeleteUsers, deleteUser } from './adminUsersApi';
import './admin.css';

const adminOnly = 'Admin access required. Please contact support if you believe this is an error.';

const dateOrDash = (value: string | null | undefined) => {
  const date = parseIsoDate(value);
  return date ? formatLocalDate(date) : '—';
};

type Pending = PendingAdminDeletion;

const pagePath = '/admin/users';

export function AdminUsersPage() {
  usePageTitle('User Management');
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState<Pending | null>(null);
  const [deleting, setDeleting] = useState(false);
  const navigate = useNavigate();

  // Back from signing in again: the deletion that asked for it waits in its confirmation dialog.
  useEffect(() => {
    const intent = takeReauth('admin-delete', pagePath);
    if (intent) setPending(intent.pending);
  }, []);

  // The search asks the server once typing pauses, from the first page.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(searchText.trim());
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText]);

  const stats = useQuery(AdminUserStatsDocument, { fetchPolicy: 'network-only' });
  const list = useQuery(AdminUsersDocument, {
    variables: { input: { q: search || null, status, page, pageSize: PAGE_SIZE } },
    fetchPolicy: 'network-only',
  });
  const listed = list.data?.adminUsers ?? list.previousData?.adminUsers;
  const rows = listed?.users ?? [];

  // A new page or filter starts with nothing selected.
  useEffect(() => setSelected(new Set()), [search, status, page]);

  const back = (
    <Link to="/settings" className="text-muted">
      ← Back to Settings
    </Link>
  );
  if (errorCode(stats.error) === 'FORBIDDEN' || errorCode(list.error) === 'FORBIDDEN') {
    return (
      <div className="page stack">
        {back}
        <div className="callout" role="alert">
          {adminOnly}
        </div>
      </div>
    );
  }

  const numbers = stats.data?.adminUserStats;
  const total = listed?.total ?? 0;
  const pages = pageCount(total, PAGE_SIZE);
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));

  const toggle = (id: string, on: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const refresh = async () => {
    await Promise.all([list.refetch(), stats.refetch()]);
  };

  const confirmDelete = async () => {
    if (!pending) return;
    setDeleting(true);
    try {
      if (pending.kind === 'one') {
        toast(deletedToast(await deleteUser(pending.id)));
      } else {
        toast(bulkDeletedToast(await bulkDeleteUsers(pending.ids)));
      }
      setSelected(new Set());
      await refresh();
    } catch (error) {
      if (isReauthRequired(error)) {
        rememberReauth({ action: 'admin-delete', returnTo: pagePath, at: Date.now(), pending });
        toast(reauthNotice);
        navigate(REAUTH_SIGN_IN_PATH);
        return;
      }
      toast({
        title: pending.kind === 'one' ? 'Delete failed' : 'Bulk delete failed',
        description: error instanceof Error ? error.message : 'Please try again.',
        variant: 'destructive',
      });
    } finally {
      setDeleting(false);
      setPending(null);
    }
  };

  const statCards = [
    { label: 'Total Users', value: numbers?.totalUsers, testId: 'stat-total-users' },
    {
      label: 'Verified',
      value: numbers?.verifiedUsers,
      extra: numbers ? verifiedPercentage(numbers.verifiedUsers, numbers.totalUsers) : undefined,
      testId: 'stat-verified',
    },
    { label: 'Active Subscriptions', value: numbers?.activeSubscriptions, testId: 'stat-active' },
    { label: 'Trial Users', value: numbers?.trialUsers, testId: 'stat-trial' },
  ];

  return (
    <div className="page stack admin-users">
      {back}
      <header className="page__header admin-users__header">
        <h1 className="page__title">User Management</h1>
        {listed && (
          <Badge variant="secondary" data-testid="user-total">
            {total} {total === 1 ? 'user' : 'users'}
          </Badge>
        )}
      </header>

      <dl className="admin-users__stats">
        {statCards.map((card) => (
          // A definition list's groups are plain divs of dt and dd, each drawn as a card.
          <div key={card.label} className="card admin-users__stat">
            <dt className="text-muted">{card.label}</dt>
            <dd data-testid={card.testId}>
              {card.value ?? '–'}
              {card.extra && <span className="admin-users__percent"> ({card.extra})</span>}
            </dd>
          </div>
        ))}
      </dl>

      <div className="admin-users__toolbar">
        <div className="field admin-users__search">
          <Label htmlFor="admin-users-search" className="visually-hidden">
            Search users
          </Label>
          <Input
            id="admin-users-search"
            type="search"
            placeholder="Search users by email or name..."
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
        </div>
        <div className="field admin-users__filter">
          <Label htmlFor="admin-users-status" className="visually-hidden">
            Status
          </Label>
          <select
            id="admin-users-status"
            className="input"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as StatusFilter);
              setPage(1);
            }}
          >
            {STATUS_FILTERS.map((filter) => (
              <option key={filter.value} value={filter.value}>
                {filter.label}
              </option>
            ))}
          </select>
        </div>
        <Button
          variant="destructive"
          disabled={selected.size === 0}
          onClick={() => setPending({ kind: 'bulk', ids: [...selected] })}
        >
          Delete selected ({selected.size})
        </Button>
      </div>

      {list.error && (
        <div className="callout" role="alert">
          We couldn’t load the users just now.
          <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </div>
      )}

      <div className="admin-users__table-wrap" aria-busy={list.loading || undefined}>
        <table className="admin-users__table">
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select all users on this page"
                  checked={allSelected}
                  disabled={rows.length === 0}
                  onChange={(event) =>
                    setSelected(event.target.checked ? new Set(rows.map((row) => row.id)) : new Set())
                  }
                />
              </th>
              <th scope="col">User</th>
              <th scope="col">Auth Provider</th>
              <th scope="col">Status</th>
              <th scope="col">Email Verified</th>
              <th scope="col">Joined</th>
              <th scope="col">Trial Ends</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {!listed && (
              <tr>
                <td colSpan={8}>
                  <Spinner />
                </td>
              </tr>
            )}
            {listed && rows.length === 0 && (
              <tr>
                <td colSpan={8} className="admin-users__empty">
                  {emptyStateText(search, status)}
                </td>
              </tr>
            )}
            {rows.map((row) => {
              const badge = userBadge(row);
              const name = [row.firstName, row.lastName].filter(Boolean).join(' ');
              return (
                <tr key={row.id} data-testid="admin-user-row">
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${row.email}`}
                      checked={selected.has(row.id)}
                      onChange={(event) => toggle(row.id, event.target.checked)}
                    />
                  </td>
                  <td>
                    {name && <div className="admin-users__name">{name}</div>}
                    <div className="text-muted admin-users__email">{row.email}</div>
                  </td>
                  <td>{authProviderLabel(row.authProvider)}</td>
                  <td>
                    <Badge variant={badge.variant}>{badge.label}</Badge>
                  </td>
                  <td>{dateOrDash(row.emailVerifiedAt)}</td>
                  <td>{dateOrDash(row.createdAt)}</td>
                  <td>{dateOrDash(row.trialEndsAt)}</td>
                  <td>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Delete ${row.email}`}
                      onClick={() => setPending({ kind: 'one', id: row.id, email: row.email })}
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <nav className="admin-users__paging" aria-label="Pages">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((current) => current - 1)}>
          Previous
        </Button>
        <span aria-live="polite">
          Page {Math.min(page, pages)} of {pages}
        </span>
        <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage((current) => current + 1)}>
          Next
        </Button>
      </nav>

      <ConfirmDialog
        open={pending !== null}
        busy={deleting}
        onOpenChange={(open) => !open && setPending(null)}
        onConfirm={() => void confirmDelete()}
        title={pending?.kind === 'bulk' ? `Delete ${pending.ids.length} users?` : 'Delete this user?'}
        description={
          pending?.kind === 'one'
            ? `This permanently deletes ${pending.email}’s account and all their data, and cancels their Stripe subscription if they have one. This cannot be undone.`
            : 'This permanently deletes the selected accounts and all their data, and cancels their Stripe subscriptions. This cannot be undone.'
        }
        confirmLabel={pending?.kind === 'bulk' ? 'Delete users' : 'Delete user'}
      />
    </div>
  );
}
