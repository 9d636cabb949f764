/**
 * Backing up and restoring Haven's databases (docs/operations.md, "Backups and logs"), run by the backup jobs and by
 * an operator from any service's image:
 *
 *   node --import tsx services/platform/src/backup-cli.ts backup --to /backups/data --keep-days 35
 *   node --import tsx services/platform/src/backup-cli.ts backup --to /backups/keys --keep-days 7 --keys
 *   node --import tsx services/platform/src/backup-cli.ts restore --from /backups/data/<name>
 *
 * The database is MONGO_URL's. A backup is every `haven_*` database (or --databases), less the people's data keys;
 * --keys backs up those keys alone. Each backup is a folder named by the time it was taken, and a run deletes the
 * backups in its folder older than --keep-days.
 *
 * A restore first moves every service's erasure group on KAFKA_BROKERS back to the backup's time (erasure-replay.ts),
 * so the people erased since are erased again when the services start; it refuses while a service runs or when Kafka
 * no longer holds every deletion request since. --without-erasure-replay restores without it, for databases no
 * service will serve (an investigation).
 */
import { parseArgs } from 'node:util';
import { basename, join } from 'node:path';
import mongoose from 'mongoose';
import { backUp, backupName, backupScope, deleteExpiredBackups, restore, takenAtOf } from './backup';
import { baseConfigShape, loadConfig } from './config';
import { replayErasuresSince } from './erasure-replay';
import { createKafka, kafkaCredentialsOf } from './kafka';
import { createLogger } from './logger';

const usage = `usage:
  backup-cli.ts backup --to <folder> --keep-days <days> [--keys] [--databases a,b]
  backup-cli.ts restore --from <backup folder> [--databases a,b] [--without-erasure-replay]
MONGO_URL names the server; a restore's erasure replay signs in to KAFKA_BROKERS as KAFKA_SASL_USERNAME.`;

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      to: { type: 'string' },
      from: { type: 'string' },
      'keep-days': { type: 'string' },
      keys: { type: 'boolean', default: false },
      databases: { type: 'string' },
      'without-erasure-replay': { type: 'boolean', default: false },
    },
  });
  const url = process.env.MONGO_URL;
  if (!url) throw new Error(`MONGO_URL is not set\n${usage}`);
  const listed = values.databases?.split(',').filter((name) => name !== '');
  const client = new mongoose.mongo.MongoClient(url);
  await client.connect();
  try {
    if (positionals[0] === 'backup') {
      const keepDays = Number(values['keep-days']);
      if (!values.to || !Number.isInteger(keepDays) || keepDays < 1) throw new Error(usage);
      const databases = listed ?? (await havenDatabases(client));
      const scope = backupScope(values.keys ? 'keys' : 'data', databases);
      const now = new Date();
      const folder = join(values.to, backupName(now));
      const summary = await backUp(client, scope, folder);
      console.log(`backed up ${summary.collections} collections, ${summary.documents} documents into ${folder}`);
      const expired = await deleteExpiredBackups(values.to, now, keepDays);
      console.log(
        `deleted ${expired.length} backups older than ${keepDays} days${expired.length ? `: ${expired.join(', ')}` : ''}`,
      );
    } else if (positionals[0] === 'restore') {
      if (!values.from) throw new Error(usage);
      if (!values['without-erasure-replay']) await replayErasuresSinceBackup(values.from);
      const summary = await restore(client, values.from, listed ? { databases: listed } : {});
      console.log(`restored ${summary.collections} collections, ${summary.documents} documents from ${values.from}`);
    } else {
      throw new Error(usage);
    }
  } finally {
    await client.close();
  }
}

/** Moves every service's erasure group back to the time the backup in `folder` was taken (its name says when). */
async function replayErasuresSinceBackup(folder: string): Promise<void> {
  const since = takenAtOf(basename(folder));
  if (!since) throw new Error(`${folder} is not named as a backup is (2026-11-30T02-00-00Z): cannot tell its time`);
  const base = baseConfigShape('user');
  const config = loadConfig({
    LOG_LEVEL: base.LOG_LEVEL,
    KAFKA_BROKERS: base.KAFKA_BROKERS,
    KAFKA_SASL_USERNAME: base.KAFKA_SASL_USERNAME,
    KAFKA_SASL_PASSWORD: base.KAFKA_SASL_PASSWORD,
  });
  const log = createLogger('backup', config.LOG_LEVEL);
  const kafka = createKafka('haven-restore', config.KAFKA_BROKERS, log, kafkaCredentialsOf(config));
  const replay = await replayErasuresSince(kafka, since);
  console.log(
    `${replay.groups.length} erasure groups read compliance's ${replay.records} events since ${since.toISOString()} again when the services start`,
  );
}

/** Haven's databases on the server: one per service and the gateway's, each named haven_<app>. */
async function havenDatabases(client: mongoose.mongo.MongoClient): Promise<string[]> {
  const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
  return databases.map(({ name }) => name).filter((name) => name.startsWith('haven_'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
