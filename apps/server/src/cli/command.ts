/** What the admin commands share (npm run user, npm run data): the database as the server opens it, and the exit. */
import { ConfigError, loadConfig } from '../config';
import { openDatabase, type OpenDatabase } from '../db/open';

/**
 * Runs `work` on the configured database (DATA_DIR / DATABASE_URL): with the embedded database it
 * connects to the running server's, or starts it for the command and stops it after (only if it
 * started it: the app may be using it).
 */
export async function withDatabase<T>(work: (database: OpenDatabase) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const quiet = { info: () => undefined, warn: (msg: string) => console.warn(msg) };
  const database = await openDatabase(config, quiet);
  try {
    return await work(database);
  } finally {
    await database.close({ stopEmbedded: database.embedded?.startedHere ?? false });
  }
}

/** Runs a command's `main` and exits with its code; a configuration error prints its message, anything else its stack. */
export function runCommand(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    },
  );
}
