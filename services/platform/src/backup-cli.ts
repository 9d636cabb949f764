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
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { backUp, backupName, backupScope, deleteExpiredBackups, restore } from './backup';

const usage = `usage:
  backup-cli.ts backup --to <folder> --keep-days <days> [--keys] [--databases a,b]
  backup-cli.ts restore --from <backup folder> [--databases a,b]
MONGO_URL names the server.`;

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
      const summary = await restore(client, values.from, listed ? { databases: listed } : {});
      console.log(`restored ${summary.collections} collections, ${summary.documents} documents from ${values.from}`);
    } else {
      throw new Error(usage);
    }
  } finally {
    await client.close();
  }
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
