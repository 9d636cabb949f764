/** A test file's own database on its world's server: opened before the file's tests, dropped after them. */
import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { testInfra } from './test-env';

/** Registers the file's hooks; `opened` receives the connection once it is open (before the first test). */
export function useOwnDatabase(name: string, opened: (connection: mongoose.Connection) => void): void {
  let connection: mongoose.Connection | undefined;
  beforeAll(async () => {
    connection = await mongoose
      .createConnection(testInfra().mongoUrl, { dbName: `${name}_${randomBytes(4).toString('hex')}` })
      .asPromise();
    opened(connection);
  });
  afterAll(async () => {
    await connection?.dropDatabase();
    await connection?.close();
  });
}
