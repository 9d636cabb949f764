import {
  isReauthRequired,
  pendingReauth,
  reauthReturn,
  ReauthRequiredError,
  rememberReauth,
  REAUTH_INTENT_MAX_AGE_MS,
  takeReauth,
  type ReauthStorage,
} from './reauth';

function memoryStorage(): ReauthStorage & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

const now = 1_800_000_000_000;

describe('re-authentication before a deletion', () => {
  it('recognises REAUTH_REQUIRED from GraphQL and from the REST routes', () => {
    expect(isReauthRequired({ errors: [{ message: 'x', extensions: { code: 'REAUTH_REQUIRED' } }] })).toBe(true);
    expect(isReauthRequired(new ReauthRequiredError('sign in again'))).toBe(true);
    expect(isReauthRequired({ errors: [{ message: 'x', extensions: { code: 'UNAUTHENTICATED' } }] })).toBe(false);
    expect(isReauthRequired(new Error('500: nope'))).toBe(false);
  });

  it('brings the person back to the page that asked, once, and only there', () => {
    const storage = memoryStorage();
    rememberReauth({ action: 'delete-account', returnTo: '/settings', at: now }, storage);
    // Wherever the sign-in lands (the provider's callback goes to /), the way back is the asking page.
    expect(reauthReturn('/', now + 1000, storage)).toBe('/settings');
    expect(reauthReturn('/auth', now + 1000, storage)).toBeNull();
    expect(reauthReturn('/settings', now + 1000, storage)).toBeNull();
    expect(takeReauth('admin-delete', '/settings', now + 1000, storage)).toBeNull();
    expect(takeReauth('delete-account', '/email-preferences', now + 1000, storage)).toBeNull();
    expect(takeReauth('delete-account', '/settings', now + 1000, storage)).toMatchObject({ action: 'delete-account' });
    expect(takeReauth('delete-account', '/settings', now + 2000, storage)).toBeNull();
  });

  it('keeps the admin’s pending deletion, and forgets a stale or malformed intent', () => {
    const storage = memoryStorage();
    const pending = { kind: 'bulk' as const, ids: ['a', 'b'] };
    rememberReauth({ action: 'admin-delete', returnTo: '/admin/users', at: now, pending }, storage);
    expect(pendingReauth(now + REAUTH_INTENT_MAX_AGE_MS + 1, storage)).toBeNull();
    expect(takeReauth('admin-delete', '/admin/users', now, storage)?.pending).toEqual(pending);

    storage.values.set('haven.reauth', '{"action":"admin-delete","returnTo":"/admin/users","at":1,"pending":{}}');
    expect(pendingReauth(2, storage)).toBeNull();
    storage.values.set('haven.reauth', '{"action":"delete-account","returnTo":"https://evil.example","at":1}');
    expect(pendingReauth(2, storage)).toBeNull();
    storage.values.set('haven.reauth', '{"action":"delete-account","returnTo":"//evil.example","at":1}');
    expect(pendingReauth(2, storage)).toBeNull();
    storage.values.set('haven.reauth', 'not json');
    expect(pendingReauth(now, storage)).toBeNull();
    expect(pendingReauth(now, null)).toBeNull();
  });
});
