import type { NextFunction, Request, Response } from 'express';
import { sameOriginOnly } from '../src/csrf';

const appOrigin = 'https://haven.example.com';

interface Outcome {
  passed: boolean;
  status: number | null;
  body: unknown;
}

/** Runs the middleware on a minimal request; headers are matched case-insensitively, as Express does. */
function send(method: string, headers: Record<string, string>, allowed = [appOrigin], protocol = 'https'): Outcome {
  const lower = Object.fromEntries(
    Object.entries({ host: 'haven.example.com', ...headers }).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const req = { method, protocol, header: (name: string) => lower[name.toLowerCase()] };
  const outcome: Outcome = { passed: false, status: null, body: undefined };
  const res = {
    status(code: number) {
      outcome.status = code;
      return this;
    },
    json(body: unknown) {
      outcome.body = body;
      return this;
    },
  };
  const next: NextFunction = () => {
    outcome.passed = true;
  };
  sameOriginOnly(allowed)(req as unknown as Request, res as unknown as Response, next);
  return outcome;
}

const refused = { passed: false, status: 403, body: { message: 'Cross-site request refused' } };
const passed = { passed: true, status: null, body: undefined };

describe('sameOriginOnly', () => {
  it.each(['GET', 'HEAD', 'OPTIONS'])('lets a %s through even from another site (it changes nothing)', (method) => {
    expect(send(method, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).toEqual(passed);
  });

  it('lets a POST without Origin or Sec-Fetch-Site through (not a browser, so no ambient cookie)', () => {
    expect(send('POST', {})).toEqual(passed);
  });

  it('lets a same-origin POST through', () => {
    expect(send('POST', { origin: appOrigin, 'sec-fetch-site': 'same-origin' })).toEqual(passed);
    expect(send('POST', { Origin: appOrigin })).toEqual(passed);
  });

  it("accepts the request's own origin even when it is not in the list", () => {
    expect(send('POST', { origin: 'http://localhost:4000', host: 'localhost:4000' }, [appOrigin], 'http')).toEqual(
      passed,
    );
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses a %s from another origin with 403', (method) => {
    expect(send(method, { origin: 'https://evil.example' })).toEqual(refused);
  });

  it('refuses a look-alike origin (scheme, port or suffix differ)', () => {
    for (const origin of [
      'http://haven.example.com',
      'https://haven.example.com:8443',
      'https://haven.example.com.evil.example',
    ]) {
      expect(send('POST', { origin })).toEqual(refused);
    }
  });

  it('refuses a request the browser marks cross-site, even without Origin', () => {
    expect(send('POST', { 'sec-fetch-site': 'cross-site' })).toEqual(refused);
  });

  it('refuses a sibling subdomain (same-site) that is not allowed', () => {
    expect(send('POST', { origin: 'https://blog.example.com', 'sec-fetch-site': 'same-site' })).toEqual(refused);
  });

  it('refuses the opaque "null" origin of sandboxed pages', () => {
    expect(send('POST', { origin: 'null' })).toEqual(refused);
  });

  it('lets a user-typed navigation (Sec-Fetch-Site: none) through', () => {
    expect(send('POST', { 'sec-fetch-site': 'none' })).toEqual(passed);
  });
});
