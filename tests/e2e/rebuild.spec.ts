import { spawn } from 'node:child_process';
import { asc, eq } from 'drizzle-orm';
import { spas } from '#db/schema.ts';
import { withTablesAt } from '../support/database.ts';
import { serverCopyForBlock } from '../support/e2e-steps.ts';
import { siteEnv } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';

test.setTimeout(180_000);
// A site of its own: these tests count the rebuilds that run, and another
// spec's publishing of the suite's site (photos.spec.ts) would be one of them.
const server = serverCopyForBlock(74, {}, { ownSite: true });

function runRebuild(): { done: Promise<{ code: number | null; output: string }>; output: () => string } {
  const { databasePath, siteDir } = server();
  const child = spawn(process.execPath, ['server/rebuild.ts'], { env: { ...siteEnv, DATABASE_PATH: databasePath, SITE_DIR: siteDir } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const done = new Promise<{ code: number | null; output: string }>((resolve) => child.on('exit', (code) => resolve({ code, output })));
  return { done, output: () => output };
}

// The change is to a description: the tests compare names and order, not descriptions.
function describeSpa(slug: string, description: string) {
  withTablesAt(server().databasePath, (db) => db.update(spas).set({ description }).where(eq(spas.slug, slug)).run(), { write: true });
}

function someSpa() {
  return withTablesAt(server().databasePath, (db) =>
    db.select({ slug: spas.slug, description: spas.description }).from(spas).where(eq(spas.tier, 'ELITE')).orderBy(asc(spas.id)).limit(1).get()!,
  );
}

test('a rebuild swaps the new site in while requests keep flowing, without one error or half page', async () => {
  const spa = someSpa();
  const marker = `Renewed ${Date.now()}.`;
  const paths = ['/', `/spas/${spa.slug}`, '/sitemap', '/cities/irvine', '/privacy-policy', '/no-such-page'];
  const failures: string[] = [];
  let requests = 0;
  let sawNewContent = false;
  let loading = true;

  const worker = async (offset: number) => {
    for (let i = offset; loading; i++) {
      const path = paths[i % paths.length]!;
      try {
        const response = await fetch(`${server().url}${path}`);
        const body = await response.text();
        requests++;
        const expectedStatus = path === '/no-such-page' ? 404 : 200;
        if (response.status !== expectedStatus) failures.push(`${path}: status ${response.status}`);
        else if (!body.trimEnd().endsWith('</html>')) failures.push(`${path}: truncated page (${body.length} bytes)`);
        if (path === `/spas/${spa.slug}` && body.includes(marker)) sawNewContent = true;
      } catch (error) {
        failures.push(`${path}: ${(error as Error).message}`);
      }
    }
  };
  const load = Promise.all(Array.from({ length: 6 }, (_, i) => worker(i)));

  describeSpa(spa.slug, `${spa.description ?? ''} ${marker}`);
  const rebuild = runRebuild();
  const result = await rebuild.done;
  expect(result.code, result.output).toBe(0);
  expect(result.output).toMatch(/published .* in \d+\.\d s/);

  // The server notices the new build on its own; keep loading until it does.
  await expect.poll(() => sawNewContent, { timeout: 15_000 }).toBe(true);
  loading = false;
  await load;

  expect(failures).toEqual([]);
  expect(requests).toBeGreaterThan(200);
});

test('a rebuild asked for while one runs is queued once, not run alongside', async () => {
  const first = runRebuild();
  await expect.poll(() => first.output(), { timeout: 30_000 }).toContain('building');
  const second = runRebuild();
  const third = runRebuild();
  const [a, b, c] = await Promise.all([first.done, second.done, third.done]);
  for (const r of [a, b, c]) expect(r.code, r.output).toBe(0);
  expect(b.output).toContain('another rebuild is running');
  expect(c.output).toContain('another rebuild is running');
  // The running rebuild built once for itself and once more for both requests.
  expect(a.output.match(/published /g)).toHaveLength(2);
  expect(b.output).not.toContain('published');
  expect(c.output).not.toContain('published');
});
