/**
 * Requests from a chosen client address: any loopback address (127.0.0.0/8 is all this machine). The gateway
 * trusts no forwarding header from a test, so the connection's address is the client.
 */
import { request as httpRequest } from 'node:http';

export interface ReplyFrom {
  status: number;
  retryAfter: string | undefined;
  json: Record<string, unknown>;
}

/** A REST POST to the gateway from `from`. */
export function postFrom(gatewayUrl: string, from: string, path: string, body: unknown): Promise<ReplyFrom> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${gatewayUrl}${path}`,
      { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const header = res.headers['retry-after'];
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: Array.isArray(header) ? header[0] : header,
            json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
          });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
