// Vitest setup file, run before each test file: the file gets its own copy of
// the run's seeded database (tests/unit-setup.ts) and its own upload, outbox and site folders,
// named in the environment before any module opens them (src/lib/server/db.ts
// reads DATABASE_PATH through astro:env when it is first imported).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const template = process.env.UNIT_DATABASE_TEMPLATE;
const runDir = process.env.UNIT_RUN_DIR;
if (!template || !runDir) throw new Error('tests/unit-setup.ts did not run (vitest.config.ts names it as globalSetup)');

const dir = mkdtempSync(join(runDir, 'file-'));
const path = join(dir, 'site.db');
copyFileSync(template, path);
process.env.DATABASE_PATH = path;
process.env.UPLOAD_DIR = join(dir, 'uploads');
process.env.MAIL_OUTBOX = join(dir, 'outbox');
process.env.SITE_DIR = join(dir, 'site');

// The file's database may still be open (its module is the file's own); removing
// it is safe on Linux, and this file imports nothing heavy for pure-logic tests.
afterAll(() => rmSync(dir, { recursive: true, force: true }));
