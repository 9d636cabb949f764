// One user per app, each allowed readWrite on its own database (haven_<app>) and nothing else: no other app's
// database, no admin database, no user or role management; and one for the backup jobs, that may only read
// (MongoDB's backup role). So one app's leaked credentials read and change that app's data only. Run by the mongo
// image's entry point as root on first start (an empty data volume) from /docker-entrypoint-initdb.d, in Kubernetes
// (the mongodb-init ConfigMap, k8s/base/kustomization.yaml) and in docker-compose.yml alike; it creates a missing
// user and resets an existing one's password and roles, so an operator can run it again after changing a URL
// (docs/operations.md, "MongoDB users"). Each app's URL is a file named after the app in /etc/haven/mongo-apps.
/* global db, print -- mongosh's own */
const fs = require('fs');
const dir = '/etc/haven/mongo-apps';
// The URL's user name and password (URL-encoded) after the scheme, and its database as the path.
const pattern = /^mongodb(?:\+srv)?:\/\/([^:@/]+):([^@/]+)@[^/]+\/([^?]+)/;
const apps = fs.readdirSync(dir).filter((file) => !file.startsWith('.'));
if (apps.length === 0) throw new Error(`no app database URLs in ${dir}`);
// Every URL is read before any user is made, so a wrong one leaves no half-made set.
const users = apps.map((app) => {
  // The backup jobs' user reads every database (the backup role) and signs in to admin.
  const database = app === 'backup' ? 'admin' : `haven_${app}`;
  const url = fs.readFileSync(`${dir}/${app}`, 'utf8').trim();
  const match = pattern.exec(url);
  if (!match) throw new Error(`${app}: its MONGO_URL has no user name, password and database`);
  if (decodeURIComponent(match[3]) !== database) {
    throw new Error(`${app}: its MONGO_URL names database ${match[3]}; it must be ${database}`);
  }
  return { app, database, user: decodeURIComponent(match[1]), pwd: decodeURIComponent(match[2]) };
});
for (const { app, database, user, pwd } of users) {
  // The user lives in the app's own database, which the URL's path names as its authentication database.
  const own = db.getSiblingDB(database);
  const roles = [{ role: app === 'backup' ? 'backup' : 'readWrite', db: database }];
  if (own.getUser(user)) own.updateUser(user, { pwd, roles });
  else own.createUser({ user, pwd, roles });
  print(
    app === 'backup'
      ? `backup: user ${user} may read every database`
      : `${app}: user ${user} may read and write ${database} only`,
  );
}
