/**
 * The local OpenID Connect provider of the tests (oidc-provider-server.ts, its own Node process: oidc-provider
 * is an ES module that jest cannot load on Node 20), configured as the issuer of both Google and the hosted
 * platform; and a small cookie-keeping HTTP "browser" that walks a sign-in through it with manual redirects.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { freePorts, repoRoot } from '../infra';
import { eventually } from './eventually';

export interface TestOidcProvider {
  issuer: string;
  /** What the user service needs to use this provider as Google and as the hosted platform. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A provider's address and credentials before it runs: the apps can be started with `env` first, then
 * the provider with their public origin (its clients' redirect URIs), as the browser tests need.
 */
export interface PlannedOidcProvider {
  issuer: string;
  env: Record<string, string>;
  /** Starts it; `appUrl` is the public origin whose callback routes it may redirect to. */
  start(appUrl: string): Promise<TestOidcProvider>;
}

export async function planTestOidcProvider(): Promise<PlannedOidcProvider> {
  const [port] = await freePorts(1);
  const issuer = `http://127.0.0.1:${port}`;
  const google = { client_id: 'haven-google', client_secret: randomBytes(16).toString('hex') };
  const platform = { client_id: 'haven-platform', client_secret: randomBytes(16).toString('hex') };
  const env = {
    GOOGLE_ISSUER_URL: issuer,
    GOOGLE_CLIENT_ID: google.client_id,
    GOOGLE_CLIENT_SECRET: google.client_secret,
    OIDC_ISSUER_URL: issuer,
    OIDC_CLIENT_ID: platform.client_id,
    OIDC_CLIENT_SECRET: platform.client_secret,
  };
  const start = async (appUrl: string): Promise<TestOidcProvider> => {
    const origin = appUrl.replace(/\/$/, '');
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'oidc-provider-server.ts')], {
      cwd: repoRoot,
      env: {
        ...process.env,
        OIDC_TEST_PORT: String(port),
        OIDC_TEST_CLIENTS: JSON.stringify([
          { ...google, redirect_uris: [`${origin}/api/auth/google/callback`] },
          { ...platform, redirect_uris: [`${origin}/api/callback`] },
        ]),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-4000);
    });
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    const stop = async () => {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      });
    };
    try {
      await eventually(
        `the test OIDC provider answering at ${issuer}`,
        async () => {
          if (child.exitCode !== null) throw new Error(`it exited: ${errors}`);
          const response = await fetch(`${issuer}/.well-known/openid-configuration`).catch(() => null);
          return response?.ok === true;
        },
        { timeoutMs: 60_000 },
      );
    } catch (error) {
      await stop();
      throw error;
    }
    return { issuer, env, stop };
  };
  return { issuer, env, start };
}

/** Plans and starts a provider for `appUrl` (when the public origin is known before the apps start). */
export async function startTestOidcProvider(options: { appUrl: string }): Promise<TestOidcProvider> {
  return (await planTestOidcProvider()).start(options.appUrl);
}

export interface BrowserResponse {
  status: number;
  /** The Location header made absolute, if any. */
  location: URL | null;
  text: string;
}

/** Keeps cookies per host and port, like a browser, and never follows a redirect by itself. */
export class CookieBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  cookie(url: string | URL, name: string): string | undefined {
    return this.jar.get(new URL(url).host)?.get(name);
  }

  setCookie(url: string | URL, name: string, value: string): void {
    const host = new URL(url).host;
    this.jar.set(host, (this.jar.get(host) ?? new Map<string, string>()).set(name, value));
  }

  dropCookie(url: string | URL, name: string): void {
    this.jar.get(new URL(url).host)?.delete(name);
  }

  async request(
    url: string | URL,
    init: { method?: string; form?: Record<string, string>; json?: unknown } = {},
  ): Promise<BrowserResponse> {
    const target = new URL(url);
    const cookies = this.jar.get(target.host);
    const headers: Record<string, string> = {};
    if (cookies?.size) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const response = await fetch(target, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair = ''] = setCookie.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const jar = this.jar.get(target.host) ?? new Map<string, string>();
      this.jar.set(target.host, jar);
      if (/max-age=0/i.test(setCookie) || /expires=thu, 01 jan 1970/i.test(setCookie) || value === '') {
        jar.delete(name);
      } else {
        jar.set(name, value);
      }
    }
    const location = response.headers.get('location');
    return {
      status: response.status,
      location: location ? new URL(location, target) : null,
      text: await response.text(),
    };
  }
}

export interface ProviderAccount {
  email: string;
  /** What the provider says about the address (`email_verified`). */
  emailVerified: boolean;
  givenName?: string;
  familyName?: string;
}

/**
 * At the provider: from its authorisation URL, through its sign-in page as `account` (or "Cancel"), to
 * the redirect back to Haven. Returns that callback URL (on the provider's registered origin).
 */
export async function signInAtProvider(
  browser: CookieBrowser,
  authorizationUrl: URL,
  account: ProviderAccount | 'cancel',
): Promise<URL> {
  let url = authorizationUrl;
  for (let step = 0; step < 10; step += 1) {
    const interaction = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
    const response = interaction
      ? await browser.request(
          new URL(`${url.pathname}/${account === 'cancel' ? 'abort' : 'login'}`, url),
          account === 'cancel'
            ? { method: 'POST', form: {} }
            : {
                form: {
                  email: account.email,
                  ...(account.emailVerified ? { email_verified: 'true' } : {}),
                  ...(account.givenName ? { given_name: account.givenName } : {}),
                  ...(account.familyName ? { family_name: account.familyName } : {}),
                },
              },
        )
      : await browser.request(url);
    if (!response.location) throw new Error(`the provider answered ${response.status} at ${url}: ${response.text}`);
    if (response.location.origin !== authorizationUrl.origin) return response.location;
    url = response.location;
  }
  throw new Error('the provider never sent the browser back');
}
