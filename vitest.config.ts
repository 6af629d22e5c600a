/// <reference types="vitest/config" />
import { globSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getViteConfig } from 'astro/config';

const TEST_FILES = ['src/**/*.test.ts', 'db/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/support/**/*.test.ts'];
// A file that replaces a module (vi.mock) needs a module graph of its own: in
// a worker shared with other files, the module is already loaded unmocked.
const OWN_MODULES = globSync(TEST_FILES).filter((file) => /\bvi\.(?:do)?[mM]ock\(/.test(readFileSync(file, 'utf8')));

// Unit tests live beside the code they test (src/**, db/**, server/**, scripts/**), and the test support's own in tests/support/.
// getViteConfig gives them Astro's virtual modules and aliases; astro:env/server is
// ours (tests/support/astro-env-server.ts), so each worker's own settings reach it.
export default getViteConfig({
  resolve: { alias: { 'astro:env/server': fileURLToPath(new URL('./tests/support/astro-env-server.ts', import.meta.url)) } },
  test: {
    environment: 'node',
    // Worker threads, not processes: the same 912 tests for half the CPU here
    // (159 s against 314 s of user and system time).
    pool: 'threads',
    // One seeded database per run, copied for each worker (tests/unit-setup.ts, tests/unit-database.ts).
    globalSetup: ['./tests/unit-setup.ts'],
    setupFiles: ['./tests/unit-database.ts'],
    // Globals and environment variables a test replaced are put back after it, for the files after it in its worker.
    unstubGlobals: true,
    unstubEnvs: true,
    // A worker loads drizzle-orm's few hundred modules (and zod's, Stripe's,
    // nodemailer's) once. Bundled by Vite's optimizer (kept in
    // node_modules/.vite), they load as one file each: when every file had a
    // new worker, the whole run went 130 -> 78 s, 147 -> 86 s of CPU.
    deps: {
      optimizer: {
        ssr: { enabled: true, include: ['drizzle-orm', 'drizzle-orm/sqlite-core', 'drizzle-orm/better-sqlite3', 'zod', 'zod/mini', 'stripe', 'nodemailer'] },
      },
    },
    projects: [
      // Files one after another in each worker, sharing its modules and its
      // database (tests/unit-database.ts). A new worker for each of the 125
      // files spent about 0.2 s starting and more loading the same modules
      // again: 91 s (96 s of CPU) for the unit tests alone on an idle machine,
      // against 51-55 s (52-56 s of CPU) shared, in three shuffled orders.
      { extends: true, test: { name: 'shared', include: TEST_FILES, exclude: OWN_MODULES, isolate: false } },
      { extends: true, test: { name: 'own modules', include: OWN_MODULES, isolate: true } },
    ],
  },
});
