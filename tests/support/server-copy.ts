// Another server on the build under test, with its own copy of the database
// (so what a test does to it, such as exhausting a rate limit, touches no
// other test) and settings of the test's choosing.
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { SettingName } from '#server/env.ts';
import { withDatabase } from './database.ts';
import { baseURL, databasePath, e2eDir, site as e2eSite, siteDir as sharedSiteDir } from './env.ts';
import { siteSettings, startSite } from './site.ts';

export interface ServerCopy {
  url: string;
  /** Its folder (the database site.db and the outbox), its database, and (with ownSite) its own published builds. */
  dir: string;
  databasePath: string;
  siteDir: string;
  child: ChildProcess;
  /** Everything the server printed so far. */
  output: () => string;
  stop: () => Promise<void>;
}

/** Ports above the suite's own: the suite's port plus `offset`. */
export const copyPort = (offset: number) => Number(new URL(baseURL).port) + offset;

/**
 * `ownSite`: the copy publishes into a SITE_DIR of its own (starting from a
 * copy of the build being served), so its rebuilds never swap the suite's site.
 * `dir`: start on the folder (database and outbox) of an earlier copy, as a restart does.
 */
export async function startServerCopy(
  port: number,
  extraEnv: Partial<Record<SettingName, string>> = {},
  { ownSite = false, dir: reuse }: { ownSite?: boolean; dir?: string } = {},
): Promise<ServerCopy> {
  const dir = reuse ?? mkdtempSync(join(e2eDir, 'copy-'));
  const database = join(dir, 'site.db');
  let site = sharedSiteDir;
  if (ownSite) {
    site = join(dir, 'site');
    if (!reuse) {
      const served = realpathSync(join(sharedSiteDir, 'current'));
      const build = join(site, 'builds', basename(served));
      mkdirSync(join(site, 'builds'), { recursive: true });
      cpSync(served, build, { recursive: true });
      symlinkSync(relative(site, build), join(site, 'current'));
      // The build's server code finds its packages by walking up from the build (server/rebuild.ts does the same).
      symlinkSync(join(process.cwd(), 'node_modules'), join(site, 'node_modules'), 'dir');
    }
  }
  if (!reuse) {
    withDatabase(databasePath, (source) => source.exec(`vacuum into '${database.replaceAll("'", "''")}'`));
  }
  // The suite's public origin (SITE_URL) and uploads: another process of the same site, as behind a load balancer.
  const running = await startSite(siteSettings(dir, port, { SITE_URL: e2eSite.SITE_URL, SITE_DIR: site, UPLOAD_DIR: e2eSite.UPLOAD_DIR, ...extraEnv }));
  return { url: `http://127.0.0.1:${port}`, dir, databasePath: database, siteDir: site, ...running };
}
