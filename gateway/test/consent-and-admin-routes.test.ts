import type { Request } from 'express';
import { adminUsersInputOf } from '../src/rest/routes/admin';
import { visitorCookie, visitorCookieMaxAgeSeconds, visitorIdOf } from '../src/session';

const requestWithCookie = (cookie: string | undefined) => ({ headers: { cookie } }) as unknown as Request;
const uuid = '3f2b8c1e-9d4a-4c2b-8e1f-0a1b2c3d4e5f';

describe('the consent cookie', () => {
  it('is httpOnly, SameSite=Lax, for the whole site, a year long, and Secure when asked', () => {
    expect(visitorCookie(uuid, false)).toBe(
      `haven_consent=${uuid}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${visitorCookieMaxAgeSeconds}`,
    );
    expect(visitorCookie(uuid, true)).toContain('; Secure;');
    expect(visitorCookieMaxAgeSeconds).toBe(365 * 24 * 60 * 60);
  });

  it('is removed with Max-Age=0', () => {
    expect(visitorCookie(null, false)).toBe('haven_consent=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
  });

  it('is read only when it holds a UUID', () => {
    expect(visitorIdOf(requestWithCookie(`haven_session=x; haven_consent=${uuid}`), false)).toBe(uuid);
    expect(visitorIdOf(requestWithCookie('haven_consent=../../etc'), false)).toBeNull();
    expect(visitorIdOf(requestWithCookie(`haven_consent=${uuid}x`), false)).toBeNull();
    expect(visitorIdOf(requestWithCookie(undefined), false)).toBeNull();
  });

  it('is __Host-haven_consent when Secure, and only that name is read then', () => {
    expect(visitorCookie(uuid, true)).toBe(
      `__Host-haven_consent=${uuid}; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=${visitorCookieMaxAgeSeconds}`,
    );
    expect(visitorIdOf(requestWithCookie(`__Host-haven_consent=${uuid}`), true)).toBe(uuid);
    // A bare name planted by a sibling subdomain or a plain-http page is not the consent cookie.
    expect(visitorIdOf(requestWithCookie(`haven_consent=${uuid}`), true)).toBeNull();
  });
});

describe('adminUsersInputOf (GET /api/admin/users)', () => {
  it('leaves absent parameters out, so the service’s defaults apply', () => {
    expect(adminUsersInputOf({})).toEqual({});
  });

  it('passes whole numbers as numbers and the rest as typed', () => {
    expect(adminUsersInputOf({ q: 'ada', status: 'trial', page: '2', pageSize: '50' })).toEqual({
      q: 'ada',
      status: 'trial',
      page: 2,
      pageSize: 50,
    });
    // Not numbers: handed on as they are, for the service to refuse by name.
    expect(adminUsersInputOf({ page: 'abc', pageSize: '' })).toEqual({ page: 'abc', pageSize: '' });
    expect(adminUsersInputOf({ page: '1.5' })).toEqual({ page: '1.5' });
    expect(adminUsersInputOf({ q: ['a', 'b'] })).toEqual({ q: ['a', 'b'] });
  });
});
