/** A small HTTP client for tests that keeps the session cookie like a browser would. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export class ApiClient {
  private cookie: string | null = null;

  constructor(private readonly baseUrl: string) {}

  get hasSession(): boolean {
    return this.cookie !== null;
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
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      const [pair] = setCookie.split(';');
      this.cookie = /Max-Age=0/i.test(setCookie) ? null : (pair ?? null);
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
