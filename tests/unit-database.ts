// Vitest setup file, run before each test file: the first file in a worker
// gives the worker its own copy of the run's seeded database
// (tests/unit-setup.ts) and its own upload, outbox and site folders, named in
// the environment before any module opens them (src/lib/server/db.ts reads
// DATABASE_PATH through astro:env when it is first imported). The worker's
// later files find the same modules loaded and use the same copy
// (vitest.config.ts); a file with module mocks has a worker of its own.
// The run's folder, copies and all, goes when the run ends.
import { copyFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';

const template = process.env.UNIT_DATABASE_TEMPLATE;
const runDir = process.env.UNIT_RUN_DIR;
if (!template || !runDir) throw new Error('tests/unit-setup.ts did not run (vitest.config.ts names it as globalSetup)');

const worker = globalThis as { unitWorkerDir?: string };
if (!worker.unitWorkerDir) {
  const dir = mkdtempSync(join(runDir, 'worker-'));
  worker.unitWorkerDir = dir;
  copyFileSync(template, join(dir, 'site.db'));
  process.env.DATABASE_PATH = join(dir, 'site.db');
  process.env.UPLOAD_DIR = join(dir, 'uploads');
  process.env.MAIL_OUTBOX = join(dir, 'outbox');
  process.env.SITE_DIR = join(dir, 'site');
}
