/**
 * A local OpenID Connect provider for tests (oidc-provider 8, the line that supports Node 20), run as its
 * own process by `startTestOidcProvider` (oidc-provider.ts). It plays Google and the hosted platform: one
 * issuer, one client each. Its sign-in page asks who you are (e-mail, names, and whether the provider
 * vouches for the address: `email_verified`), so a test or a browser decides the claims; "Cancel" answers
 * `access_denied` as a provider does when someone says no.
 *
 * Environment: OIDC_TEST_PORT, OIDC_TEST_CLIENTS (JSON: [{ client_id, client_secret, redirect_uris }]).
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

interface AccountClaims {
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
}

/** One person per address: the same e-mail is the same `sub`, so a second sign-in is the same identity. */
const subjectOf = (email: string) =>
  `acct-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 20)}`;

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function signInPage(uid: string, clientId: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test provider: sign in</title></head>
<body>
<h1>Sign in to the test provider</h1>
<p>For ${escape(clientId)}</p>
<form method="post" action="/interaction/${escape(uid)}/login">
  <label>Email <input name="email" type="email" required></label>
  <label>First name <input name="given_name"></label>
  <label>Last name <input name="family_name"></label>
  <label><input name="email_verified" type="checkbox" value="true" checked> The provider has verified this email</label>
  <button type="submit">Continue</button>
</form>
<form method="post" action="/interaction/${escape(uid)}/abort"><button type="submit">Cancel</button></form>
</body></html>`;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

async function main(): Promise<void> {
  const port = Number(process.env.OIDC_TEST_PORT);
  const clients = JSON.parse(process.env.OIDC_TEST_CLIENTS ?? '[]') as TestClient[];
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, AccountClaims>();
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  const { default: Provider } = await import('oidc-provider');
  const provider = new Provider(issuer, {
    clients: clients.map((client) => ({
      ...client,
      response_types: ['code'],
      grant_types: ['authorization_code'],
      // openid-client's default, and one Google accepts.
      token_endpoint_auth_method: 'client_secret_post',
    })),
    pkce: { required: () => true, methods: ['S256'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
    findAccount: async (_ctx, sub) => {
      const claims = accounts.get(sub);
      return claims ? { accountId: sub, claims: async () => ({ sub, ...claims }) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    jwks: { keys: [{ ...signingKey, alg: 'RS256', use: 'sig', kid: 'test-key' }] },
  });
  // Quiet: the tests assert on what Haven did, and a refused token is an expected case here.
  provider.on('server_error', (_ctx, error) => console.error('oidc test provider:', error));

  const oidc = provider.callback();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(req.url ?? '');
    if (!match) return void oidc(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (req.method === 'GET' && !match[2]) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(signInPage(details.uid, String(details.params.client_id)));
          return;
        }
        if (req.method === 'POST' && match[2] === '/abort') {
          await provider.interactionFinished(req, res, {
            error: 'access_denied',
            error_description: 'End-User aborted interaction',
          });
          return;
        }
        if (req.method === 'POST' && match[2] === '/login') {
          const form = await formBody(req);
          const email = form.get('email')?.trim() ?? '';
          if (!email) throw new Error('email is required');
          const sub = subjectOf(email);
          accounts.set(sub, {
            email,
            email_verified: form.get('email_verified') === 'true',
            ...(form.get('given_name') ? { given_name: form.get('given_name')! } : {}),
            ...(form.get('family_name') ? { family_name: form.get('family_name')! } : {}),
          });
          const grant = new provider.Grant({ accountId: sub, clientId: String(details.params.client_id) });
          grant.addOIDCScope(String(details.params.scope));
          const grantId = await grant.save();
          await provider.interactionFinished(req, res, { login: { accountId: sub }, consent: { grantId } });
          return;
        }
        res.writeHead(405).end();
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
    })();
  });
  server.listen(port, '127.0.0.1', () => console.log(`oidc test provider at ${issuer}`));
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
