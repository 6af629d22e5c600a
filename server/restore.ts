// `npm run db:restore -- FILE`: puts a backup in place of the database, after
// SQLite's integrity check. Only into a stopped site: a running server keeps
// the old file open and would go on writing to it.
import { envPath, env, loadEnv } from './env.ts';
import { restore } from './backups.ts';
import { logger } from '#lib/log.ts';

const log = logger('restore');

async function siteIsRunning(): Promise<boolean> {
  const url = `http://${env('HOST')}:${env('PORT')}/healthz`;
  return fetch(url, { signal: AbortSignal.timeout(1_000) })
    .then((response) => response.ok)
    .catch(() => false);
}

async function main() {
  loadEnv();
  const file = process.argv[2];
  if (!file) throw new Error('usage: npm run db:restore -- path/to/site-YYYYMMDD-HHMMSS.db');
  if (await siteIsRunning()) throw new Error(`the site answers on ${env('HOST')}:${env('PORT')}; stop it first`);
  const { keptOld, uploadsRestored } = restore(file, envPath('DATABASE_PATH'), { uploadDir: envPath('UPLOAD_DIR') });
  log.info(
    `restored ${file} into ${envPath('DATABASE_PATH')}${keptOld ? ` (the previous database is kept as ${keptOld})` : ''}; ${uploadsRestored} uploaded file(s) put back`,
  );
}

main().catch((error: unknown) => {
  log.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
