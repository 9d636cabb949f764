import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface KeyFiles {
  privateKeyFile: string;
  publicKeyFile: string;
  /** The secret the gateway sends the subgraphs (SUBGRAPH_SECRET_FILE). */
  subgraphSecretFile: string;
  /** The services' own credential (SERVICE_SECRET_FILE), never given to the gateway. */
  serviceSecretFile: string;
}

/** A local ES256 key pair for session tokens, made once per state folder. Never used in production. */
export function ensureDevKeys(stateDir: string): KeyFiles {
  const dir = join(stateDir, 'keys');
  const files = {
    privateKeyFile: join(dir, 'jwt-private.pem'),
    publicKeyFile: join(dir, 'jwt-public.pem'),
    subgraphSecretFile: join(dir, 'subgraph-secret'),
    serviceSecretFile: join(dir, 'service-secret'),
  };
  if (!existsSync(files.privateKeyFile) || !existsSync(files.publicKeyFile)) {
    mkdirSync(dir, { recursive: true });
    const { privateKey, publicKey } = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    writeFileSync(files.privateKeyFile, privateKey, { mode: 0o600 });
    writeFileSync(files.publicKeyFile, publicKey);
  }
  for (const secretFile of [files.subgraphSecretFile, files.serviceSecretFile]) {
    if (existsSync(secretFile)) continue;
    mkdirSync(dir, { recursive: true });
    writeFileSync(secretFile, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return files;
}
