/**
 * One HTTP request below fetch: the path goes byte for byte as given (fetch and URL resolve dot segments and
 * percent-encoded ones), and the request can leave from a chosen loopback address (127.0.0.0/8 is all this
 * machine), so a test can be as many clients as the rate limits can tell apart.
 */
import { request as httpRequest } from 'node:http';

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as a GraphQL or REST answer; empty when it is not JSON (read `text` then). */
  json: {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  } & Record<string, unknown>;
}

export function rawRequest(
  base: string,
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string>; from?: string } = {},
): Promise<RawReply> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        method,
        path,
        localAddress: options.from,
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: RawReply['json'] = {};
          try {
            json = JSON.parse(text) as RawReply['json'];
          } catch {
            // not JSON: the test looks at the text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A POST of `body` to a full URL (its path taken as it is), from a chosen loopback address. */
export function rawPost(
  url: string,
  body: string,
  { from, headers = {} }: { from: string; headers?: Record<string, string> },
): Promise<RawReply> {
  const { origin, pathname, search } = new URL(url);
  return rawRequest(origin, 'POST', `${pathname}${search}`, { body, headers, from });
}

export interface ReplyFrom extends RawReply {
  retryAfter: string | undefined;
}

/** A REST POST of a JSON body to the gateway from `from` (the gateway trusts no forwarding header from a test). */
export async function postFrom(gatewayUrl: string, from: string, path: string, body: unknown): Promise<ReplyFrom> {
  const reply = await rawPost(`${gatewayUrl}${path}`, JSON.stringify(body), { from });
  const header = reply.headers['retry-after'];
  return { ...reply, retryAfter: Array.isArray(header) ? header[0] : header };
}
