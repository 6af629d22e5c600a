// Another server on the build under test, with its own copy of the database
// (so what a test does to it, such as exhausting a rate limit, touches no
// other test) and settings of the test's choosing.
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { baseURL, databasePath, e2eDir, siteEnv } from './env.ts';

export interface ServerCopy {
  url: string;
  /** Its folder: the database (site.db) and the outbox. */
  dir: string;
  child: ChildProcess;
  /** Everything the server printed so far. */
  output: () => string;
  stop: () => void;
}

/** Ports above the suite's own: the suite's port plus `offset`. */
export const copyPort = (offset: number) => Number(new URL(baseURL).port) + offset;

/** `options.dir`: start on the folder (database and outbox) of an earlier copy, as a restart does. */
export async function startServerCopy(port: number, extraEnv: Record<string, string> = {}, options: { dir?: string } = {}): Promise<ServerCopy> {
  const dir = options.dir ?? mkdtempSync(join(e2eDir, 'copy-'));
  const database = join(dir, 'site.db');
  if (!options.dir) {
    const source = new Database(databasePath, { readonly: true });
    try {
      source.exec(`vacuum into '${database.replaceAll("'", "''")}'`);
    } finally {
      source.close();
    }
  }
  const child = spawn(process.execPath, ['server/serve.ts'], {
    env: { ...siteEnv, DATABASE_PATH: database, MAIL_OUTBOX: join(dir, 'outbox'), PORT: String(port), HOST: '127.0.0.1', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (data: Buffer) => {
      log += data.toString();
      if (log.includes('listening on')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${log}`)));
  });
  return { url: `http://127.0.0.1:${port}`, dir, child, output: () => log, stop: () => child.kill('SIGTERM') };
}
