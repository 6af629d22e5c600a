// What /healthz and /readyz answer (server/serve.ts). Liveness says only that
// the process answers; readiness says whether it should get traffic, and, to
// the operator only, what they want to see at a glance. No secrets, no
// addresses, no tokens.
import type { Database } from 'better-sqlite3';
import { timingSafeEqual } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { readRebuildResult, type RebuildResult } from '#lib/server/published-site.ts';

export interface Readiness {
  ready: boolean;
  database: { ok: boolean; error?: string };
  build: { id: string; builtAt: string | null } | null;
  mailQueue: { waiting: number; failed: number; oldestWaitingSeconds: number | null } | null;
  lastRebuild: RebuildResult | null;
  /** This process's memory, and how many builds it has loaded: each build's server code stays loaded (ES modules are never unloaded). */
  memory: ProcessMemory;
}

export interface ProcessMemory {
  rssMb: number;
  heapTotalMb: number;
  heapUsedMb: number;
  /** Buffers and other memory outside the JavaScript heap: the static files held, mostly. */
  externalMb: number;
  buildsLoaded: number;
}

const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

/** The figures of `memory` in /readyz, from process.memoryUsage(). */
export function processMemory(buildsLoaded: number): ProcessMemory {
  const usage = process.memoryUsage();
  return { rssMb: mb(usage.rss), heapTotalMb: mb(usage.heapTotal), heapUsedMb: mb(usage.heapUsed), externalMb: mb(usage.external), buildsLoaded };
}

interface QueueRow {
  waiting: number;
  failed: number;
  oldest: number | null;
}

/** Ready: the database answers and a build is being served. The queue and the last rebuild are reported, not judged. */
export function readiness(
  sqlite: Database,
  siteDir: string,
  build: { id: string; builtAt: string | null } | null,
  memory: ProcessMemory,
  now = Date.now(),
): Readiness {
  let database: Readiness['database'] = { ok: true };
  let mailQueue: Readiness['mailQueue'] = null;
  try {
    sqlite.prepare('select 1').get();
    const row = sqlite
      .prepare<[], QueueRow>(
        `select sum(sent_at is null and failed_at is null) as waiting,
                sum(failed_at is not null) as failed,
                min(case when sent_at is null and failed_at is null then created_at end) as oldest
         from mail_queue`,
      )
      .get();
    mailQueue = {
      waiting: row?.waiting ?? 0,
      failed: row?.failed ?? 0,
      oldestWaitingSeconds: row?.oldest ? Math.max(0, Math.round((now - row.oldest) / 1000)) : null,
    };
  } catch (error) {
    database = { ok: false, error: error instanceof Error ? error.message.split('\n')[0] : 'unknown error' };
  }
  return { ready: database.ok && build !== null, database, build, mailQueue, lastRebuild: readRebuildResult(siteDir), memory };
}

/**
 * Whether /readyz may show its detail (builds, mail queue, memory): to a
 * client on this machine (the address the server decided on, so behind a
 * trusted proxy the visitor's, not the proxy's), or to one that shows the
 * token as `Authorization: Bearer <token>`. Anyone else learns only whether
 * the site is ready (issue 23, item 9).
 */
export function mayReadDetail(clientAddress: string | null, authorization: string | undefined, token: string): boolean {
  if (clientAddress && ipaddr.isValid(clientAddress) && ipaddr.process(clientAddress).range() === 'loopback') return true;
  if (!token || !authorization?.startsWith('Bearer ')) return false;
  const given = Buffer.from(authorization.slice('Bearer '.length).trim());
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
