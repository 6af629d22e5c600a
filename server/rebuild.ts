// `npm run rebuild` (and `npm start` with --if-stale): renders the pre-rendered
// pages from the current database into a new folder and swaps it in atomically
// while the server keeps serving. Rebuilds never overlap; asking for one while
// one runs queues exactly one more. See docs/decisions/0002-atomic-publishing.md.
import { build } from 'astro';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { siteMeta } from '#db/schema.ts';
import { bakedInValues, env, envPath, loadEnv } from './env.ts';
import {
  acquireRebuildLock,
  isPending,
  markPending,
  pruneBuilds,
  releaseRebuildLock,
  sourceHash,
  staleReason,
  swapCurrent,
  takePending,
} from './site-builds.ts';
import { currentBuildDir, paths, readBuildInfo, writeRebuildResult, type BuildInfo } from '#lib/server/published-site.ts';
import { logger } from '#lib/log.ts';
import { nginxPaths, writePagePolicy } from './nginx-config.ts';
import { COMPRESSION, precompress } from './precompress.ts';

const log = logger('rebuild');

const root = process.cwd();

function contentVersion(dbPath: string): number {
  return openDatabase(dbPath).select().from(siteMeta).get()?.contentVersion ?? 0;
}

// A build's server code imports packages (better-sqlite3, drizzle...) by name.
// Node finds them by walking up from the build folder, which works when SITE_DIR
// is inside the project; elsewhere (tests use a temporary folder) a link to our
// node_modules next to the builds does the same.
function linkDependencies(siteDir: string) {
  const link = join(siteDir, 'node_modules');
  if (!relative(root, siteDir).startsWith('..') || existsSync(link)) return;
  symlinkSync(join(root, 'node_modules'), link, 'dir');
}

/** The build being written, and the site it is for: a stop (SIGTERM) removes it and lets go of the lock. */
let unfinished: { siteDir: string; outDir: string } | null = null;

async function buildOnce(siteDir: string, dbPath: string): Promise<BuildInfo> {
  const started = performance.now();
  const version = contentVersion(dbPath); // read first: later changes make this build stale
  const id = `${new Date().toISOString().replace(/[-:.]/g, '').replace('T', '-').slice(0, 15)}-${process.pid}-${version}`;
  const outDir = join(paths(siteDir).builds, id);
  unfinished = { siteDir, outDir };
  log.info(`building ${id} (content version ${version})`);
  try {
    await build({ root, outDir, logLevel: process.env.REBUILD_LOG_LEVEL === 'warn' ? 'warn' : 'info' });
  } catch (error) {
    rmSync(outDir, { recursive: true, force: true }); // never leave a half build behind
    const message = error instanceof Error ? error.message : String(error);
    writeRebuildResult(siteDir, {
      ok: false,
      at: new Date().toISOString(),
      buildId: id,
      durationMs: Math.round(performance.now() - started),
      error: message.split('\n').slice(0, 20).join('\n'),
    });
    throw error;
  }
  // Compressed once here, so no front compresses a page (server/precompress.ts);
  // what did not change since the published build keeps that build's copies.
  const published = currentBuildDir(siteDir);
  const reuseFrom = published && readBuildInfo(published)?.compression === COMPRESSION ? join(published, 'client') : null;
  const compressed = await precompress(join(outDir, 'client'), { reuseFrom });
  log.info(`compressed ${compressed.files} files in ${(compressed.ms / 1000).toFixed(1)} s (${compressed.reused} kept from the current build)`);
  const info: BuildInfo = {
    id,
    contentVersion: version,
    sourceHash: sourceHash(root, bakedInValues()),
    builtAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
    siteUrl: env('SITE_URL'),
    compression: COMPRESSION,
  };
  writeFileSync(join(outDir, 'build.json'), JSON.stringify(info, null, 2));
  // nginx in front sends the pages' policy from this file (docs/decisions/0026); it
  // changes only with the code or the keys, and nginx must reload to send the new one.
  const hadPolicy = existsSync(nginxPaths(siteDir).pagePolicy);
  if (writePagePolicy(siteDir, outDir) && hadPolicy) log.warn(`the pages' policy changed: reload nginx (${nginxPaths(siteDir).pagePolicy})`);
  swapCurrent(siteDir, outDir);
  unfinished = null;
  writeRebuildResult(siteDir, { ok: true, at: info.builtAt, buildId: id, durationMs: info.durationMs });
  const pruned = pruneBuilds(siteDir);
  log.info(
    `published ${id} in ${(info.durationMs / 1000).toFixed(1)} s` +
      (pruned.length ? ` (removed ${pruned.length} old build${pruned.length > 1 ? 's' : ''})` : ''),
  );
  return info;
}

export async function publish({ ifStale = false } = {}): Promise<'built' | 'up-to-date' | 'queued'> {
  loadEnv();
  const siteDir = envPath('SITE_DIR');
  const dbPath = envPath('DATABASE_PATH');
  process.env.DATABASE_PATH = dbPath; // the build's pages read the same file
  mkdirSync(paths(siteDir).builds, { recursive: true });
  linkDependencies(siteDir);
  migrateDatabase(dbPath);

  markPending(siteDir);
  let outcome: 'built' | 'up-to-date' | 'queued' = 'queued';
  let checkStaleness = ifStale; // only the caller's own request may be skipped
  while (acquireRebuildLock(siteDir)) {
    try {
      while (takePending(siteDir)) {
        if (checkStaleness) {
          checkStaleness = false;
          const reason = staleReason(readBuildInfo(currentBuildDir(siteDir) ?? ''), {
            contentVersion: contentVersion(dbPath),
            sourceHash: sourceHash(root, bakedInValues()),
          });
          if (!reason) {
            log.info('the published site is up to date');
            outcome = 'up-to-date';
            continue;
          }
          log.info(`${reason}`);
        }
        await buildOnce(siteDir, dbPath);
        outcome = 'built';
      }
    } finally {
      releaseRebuildLock(siteDir);
    }
    if (!isPending(siteDir)) break;
  }
  if (outcome === 'queued') log.info('another rebuild is running; it will build again when it ends');
  return outcome;
}

if (import.meta.main) {
  // Stopped (the server that started it stops): nothing half-built stays, and the lock is free.
  process.once('SIGTERM', () => {
    if (unfinished) {
      rmSync(unfinished.outDir, { recursive: true, force: true });
      releaseRebuildLock(unfinished.siteDir);
    }
    log.warn('stopped before the build was published');
    process.exit(1);
  });
  const { values } = parseArgs({ options: { 'if-stale': { type: 'boolean', default: false } } });
  publish({ ifStale: values['if-stale'] }).then(
    () => process.exit(0),
    (error: unknown) => {
      log.error('failed', error);
      process.exit(1);
    },
  );
}
