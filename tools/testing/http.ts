/** A small HTTP client for tests that keeps the session cookie like a browser would. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export class ApiClient {
  /** Cookies by name, as a browser keeps them (the session, and the consent cookie of a visitor). */
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  /**
   * A second client holding a copy of this one's cookies, at this server or another of Haven's (a second
   * gateway): what it is answered (a sign-in to another account) stays in its own jar.
   */
  at(baseUrl: string = this.baseUrl): ApiClient {
    const other = new ApiClient(baseUrl);
    for (const [name, value] of this.cookies) other.cookies.set(name, value);
    return other;
  }

  get hasSession(): boolean {
    return this.cookies.has('haven_session');
  }

  /** The Cookie header the client sends (every cookie it keeps), or null without any. */
  get cookie(): string | null {
    return this.cookies.size > 0 ? [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') : null;
  }

  /** A cookie's value, or undefined when the client has none by that name. */
  cookieValue(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Sets a cookie as an earlier answer would have (a browser that took part in a step the test did elsewhere). */
  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: {
      json?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
      redirect?: 'manual' | 'follow';
    } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie) headers.cookie = this.cookie;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.rawBody !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = options.rawBody;
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body,
      redirect: options.redirect ?? 'manual',
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair = ''] = setCookie.split(';');
      const separator = pair.indexOf('=');
      if (separator < 1) continue;
      const name = pair.slice(0, separator).trim();
      if (/Max-Age=0/i.test(setCookie)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(separator + 1));
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.request<T>('GET', path);
  }

  post<T = Record<string, unknown>>(path: string, json?: unknown) {
    return this.request<T>('POST', path, json === undefined ? {} : { json });
  }

  graphql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) {
    return this.request<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>(
      'POST',
      '/graphql',
      {
        json: { query, variables },
      },
    );
  }
}

export function uniqueEmail(prefix = 'person'): string {
  return `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.com`;
}
