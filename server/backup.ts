// `npm run db:backup`: an online, checked copy of the database in BACKUP_DIR,
// safe while the site runs and takes writes; old copies go by the retention
// (newest 7 days, 4 weeks). The server runs the same every night.
import { envPath, loadEnv } from './env.ts';
import { backUp } from './backups.ts';
import { logger } from '#lib/log.ts';

const log = logger('backup');

export async function backUpNow() {
  loadEnv();
  const result = await backUp(envPath('DATABASE_PATH'), envPath('BACKUP_DIR'), new Date(), { uploadDir: envPath('UPLOAD_DIR') });
  log.info(
    `wrote ${result.file} (${(result.bytes / 1024 / 1024).toFixed(1)} MB in ${result.ms} ms)${result.removed.length ? `; removed ${result.removed.length} old` : ''}; uploads: ${result.uploads?.copied ?? 0} new file(s) copied`,
  );
  return result;
}

if (import.meta.main) {
  backUpNow().catch((error: unknown) => {
    log.error('failed', error);
    process.exit(1);
  });
}
