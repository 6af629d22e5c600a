// Listing photos (issue 13): the owner's photo page with and without
// JavaScript, the tier limit, 100 hostile uploads through the real server,
// the pictures on the published spa page, the social card, and axe.
import type { Page } from '@playwright/test';
import { axeBuilder } from '../support/axe.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { expect, test, type ListingFields } from '../support/fixtures.ts';
import { encodeForm, postChunked } from '../support/post-chunked.ts';
import { hostileUploads, photo } from '../support/test-images.ts';
import { asc, eq } from 'drizzle-orm';
import { cities, spaPhotos, spas, type Tier } from '#db/schema.ts';
import { withTablesAt } from '../support/database.ts';
import { serverCopyForBlock } from '../support/e2e-steps.ts';
import { baseURL, databasePath, e2eDir, site } from '../support/env.ts';
import { buildSiteAlongside } from '../support/site.ts';
import { createSignedInUser, signIn, type TestUser } from '../support/sessions.ts';

/** The photo files in an uploads folder (UPLOAD_DIR). */
const uploadedFiles = (uploadDir: string) => (existsSync(join(uploadDir, 'photos')) ? readdirSync(join(uploadDir, 'photos')).sort() : []);

/** The owner's photo page of a listing. */
const photoPage = (spa: { id: number; slug: string }) => ({ ...spa, path: `/owner/spas/${spa.id}/photos` });
/** What the photo tests' listings on the suite's server say (the `listing` fixture's fields), a YouTube feed when given. */
const photoListing = (tier: Tier, socialFeedUrl?: string): ListingFields => ({
  tier,
  description: 'A listing made by the photo tests.',
  ...(socialFeedUrl ? { socialFeedUrl, socialPlatform: 'youtube' } : {}),
});

let spaCount = 0;
/** A listing in a server copy's own database (the copy goes with its database). */
function makeSpa(owner: TestUser, tier: Tier, extra: { active?: boolean }, database: string) {
  const slug = `photo-e2e-${Date.now()}-${spaCount++}`;
  const row = withTablesAt(
    database,
    (db) => {
      const city = db.select({ id: cities.id }).from(cities).orderBy(asc(cities.id)).limit(1).get()!;
      return db
        .insert(spas)
        .values({
          name: `Photo Test Spa ${spaCount}`,
          slug,
          tier,
          cityId: city.id,
          ownerId: owner.id,
          active: extra.active !== false,
          description: 'A listing made by the photo tests.',
        })
        .returning({ id: spas.id })
        .get();
    },
    { write: true },
  );
  return photoPage({ id: row.id, slug });
}
const photosOf = (spaId: number, database = databasePath) =>
  withTablesAt(database, (db) =>
    db
      .select({ id: spaPhotos.id, url: spaPhotos.url, alt: spaPhotos.alt, position: spaPhotos.position })
      .from(spaPhotos)
      .where(eq(spaPhotos.spaId, spaId))
      .orderBy(asc(spaPhotos.position))
      .all(),
  );
const spaRow = (spaId: number) =>
  withTablesAt(databasePath, (db) => db.select({ name: spas.name, imageUrl: spas.imageUrl }).from(spas).where(eq(spas.id, spaId)).get()!);
const coverOf = (spaId: number) => spaRow(spaId).imageUrl;
/** Photos put straight into the listing (no upload), as the demo data has them. */
const addPhotos = (database: string, spaId: number, photos: { url: string; alt: string; position: number }[]) =>
  withTablesAt(
    database,
    (db) =>
      db
        .insert(spaPhotos)
        .values(photos.map((photo) => ({ spaId, ...photo })))
        .run(),
    { write: true },
  );

async function upload(page: Page, file: Buffer, name = 'photo.jpg', alt = '') {
  await page.getByLabel('Photo', { exact: true }).setInputFiles({ name, mimeType: 'image/jpeg', buffer: file });
  if (alt) await page.getByLabel(/^Description \(for people/).fill(alt);
  await page.getByRole('button', { name: 'Upload photo' }).click();
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the photo page ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test('upload, describe, reorder, set the cover and delete', async ({ page, signedIn, listing }) => {
      test.setTimeout(120_000);
      const owner = await signedIn('owner');
      const spa = photoPage(listing(owner, photoListing('PREMIUM')));
      await page.goto(spa.path);
      await expect(page.getByRole('heading', { name: 'Photos', level: 2 })).toBeVisible();
      await expect(page.locator('[data-no-photos]')).toBeVisible();

      // Pictures of their own (a picture another listing shows keeps its files when deleted here).
      const seed = javaScriptEnabled ? 100 : 200;
      await upload(page, await photo(1600, 1067, 'jpeg', seed), 'front.jpg', 'Front desk with orchids');
      await expect(page.getByRole('status')).toContainText('Photo uploaded');
      await upload(page, await photo(1200, 900, 'png', seed + 1), 'room.png');
      await expect(page.getByRole('status')).toContainText('Photo uploaded');
      await expect(page.locator('[data-photo-count]')).toHaveText('2 of 10 photos');
      let rows = photosOf(spa.id);
      const { name } = spaRow(spa.id);
      expect(rows.map((r) => r.alt)).toEqual(['Front desk with orchids', `Photo of ${name}`]);
      expect(coverOf(spa.id)).toBe(rows[0]!.url);

      // Served from /uploads: our name, our type, cached for a year.
      const served = await page.request.get(rows[0]!.url);
      expect(served.status()).toBe(200);
      expect(served.headers()['content-type']).toBe('image/webp');
      expect(served.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      const avif = await page.request.get(rows[0]!.url.replace('.webp', '.avif'));
      expect(avif.headers()['content-type']).toBe('image/avif');
      // The page shows them as <picture> with AVIF first and the true size.
      const first = page.locator('[data-photo-list] li').first();
      await expect(first.locator('source').first()).toHaveAttribute('type', 'image/avif');
      await expect(first.locator('img')).toHaveAttribute('width', '1200');
      await expect(first.locator('img')).toHaveAttribute('height', '800');

      // Describe the second photo.
      await page.getByLabel('Description of photo 2').fill('Treatment room');
      await page.getByRole('button', { name: 'Save description of photo 2' }).click();
      await expect(page.getByRole('status')).toContainText('Description saved');
      expect(photosOf(spa.id)[1]!.alt).toBe('Treatment room');

      // Move the second photo to the first place: it becomes the cover.
      await page.getByLabel('Position of photo 2').selectOption('1');
      await page.getByRole('button', { name: 'Move photo 2' }).click();
      await expect(page.getByRole('status')).toContainText('Cover photo set');
      rows = photosOf(spa.id);
      expect(rows.map((r) => r.alt)).toEqual(['Treatment room', 'Front desk with orchids']);
      expect(coverOf(spa.id)).toBe(rows[0]!.url);
      // And back the same way.
      await page.getByLabel('Position of photo 2').selectOption('1');
      await page.getByRole('button', { name: 'Move photo 2' }).click();
      await expect(page.getByRole('status')).toContainText('Cover photo set');
      rows = photosOf(spa.id);
      expect(rows[0]!.alt).toBe('Front desk with orchids');
      expect(coverOf(spa.id)).toBe(rows[0]!.url);

      // A photo goes straight to a place: the position form, or (with JavaScript) a drag onto that place.
      await upload(page, await photo(1000, 750, 'jpeg', seed + 2), 'laser.jpg', 'Laser suite');
      await expect(page.getByRole('status')).toContainText('Photo uploaded');
      if (javaScriptEnabled) {
        await expect(page.locator('[data-drag-hint]')).toBeVisible();
        // The drag's own events, as the browser sends them (Playwright's mouse drag does not reach drop reliably).
        const items = page.locator('[data-photo-list] > li');
        const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
        await items.nth(2).locator('img').dispatchEvent('dragstart', { dataTransfer });
        await items.nth(0).locator('img').dispatchEvent('dragover', { dataTransfer });
        await expect(items.nth(0)).toHaveAttribute('data-drop-target', '');
        await items.nth(0).locator('img').dispatchEvent('drop', { dataTransfer });
      } else {
        await expect(page.locator('[data-drag-hint]')).toBeHidden();
        await page.getByLabel('Position of photo 3').selectOption('1');
        await page.getByRole('button', { name: 'Move photo 3' }).click();
      }
      // Its first place makes it the cover, and the notice says so.
      await expect(page.getByRole('status')).toContainText('Cover photo set');
      rows = photosOf(spa.id);
      expect(rows.map((r) => r.alt)).toEqual(['Laser suite', 'Front desk with orchids', 'Treatment room']);
      expect(coverOf(spa.id)).toBe(rows[0]!.url);
      await expect(page.getByLabel('Position of photo 1')).toHaveValue('1');

      // Delete: the row and its files go.
      const goneUrl = rows[1]!.url;
      await page.getByRole('button', { name: 'Delete photo 2' }).click();
      await expect(page.getByRole('status')).toContainText('Photo deleted');
      expect(photosOf(spa.id)).toHaveLength(2);
      expect((await page.request.get(goneUrl)).status()).toBe(404);
    });

    test('a file that is not a photo is refused in place, with the reason', async ({ page, signedIn, listing }) => {
      const owner = await signedIn('owner');
      const spa = photoPage(listing(owner, photoListing('FREE')));
      await page.goto(spa.path);
      const response = page.waitForResponse((r) => r.request().method() === 'POST');
      await page.getByLabel('Photo', { exact: true }).setInputFiles({
        name: 'evil.jpg',
        mimeType: 'image/jpeg',
        buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      });
      await page.getByRole('button', { name: 'Upload photo' }).click();
      expect((await response).status()).toBe(415);
      await expect(page.locator('[data-upload-error]')).toHaveText('This file is not a photo we can use. Upload a JPEG, PNG, WebP or AVIF picture.');
      await expect(page.getByLabel('Photo', { exact: true })).toHaveAttribute('aria-invalid', 'true');
      expect(photosOf(spa.id)).toEqual([]);
    });
  });
}

test('with JavaScript, a photo over 10 MB is refused as it is chosen, never sent; while a photo is sent the button says so', async ({
  page,
  signedIn,
  listing,
}) => {
  const owner = await signedIn('owner');
  const spa = photoPage(listing(owner, photoListing('FREE')));
  await page.goto(spa.path);
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url());
  });
  const file = page.getByLabel('Photo', { exact: true });
  await file.setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
  await expect(file).toHaveJSProperty('validationMessage', 'This photo is larger than 10 MB. Make it smaller and try again.');
  await page.getByRole('button', { name: 'Upload photo' }).click();
  expect(posts).toEqual([]);

  // A photo that fits goes. What the form shows as it is sent is noted where the next page can read it.
  await page.evaluate(() =>
    addEventListener('submit', () => {
      const button = document.querySelector<HTMLButtonElement>('[data-upload-form] button[type="submit"]')!;
      const shown = { label: button.textContent?.trim(), disabled: button.disabled, status: document.querySelector('[data-upload-status]')?.textContent };
      sessionStorage.setItem('while-sending', JSON.stringify(shown));
    }),
  );
  await upload(page, await photo(800, 600, 'jpeg', 300), 'fits.jpg');
  await expect(page.getByRole('status')).toContainText('Photo uploaded');
  expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('while-sending')))!)).toEqual({
    label: 'Uploading…',
    disabled: true,
    status: 'Uploading your photo. This can take a minute on a slow connection.',
  });
  // The next page's form is ready for another.
  await expect(page.getByRole('button', { name: 'Upload photo' })).toBeEnabled();
  expect(posts).toHaveLength(1);
  expect(photosOf(spa.id)).toHaveLength(1);
});

test('only the owner or an editor: signed out 401, a client or another owner 404', async ({ browser, signedIn, person, listing }) => {
  const owner = person('owner');
  const spa = photoPage(listing(owner, photoListing('PREMIUM')));
  const anonymous = await browser.newContext();
  const signedOut = await anonymous.request.get(`${baseURL}${spa.path}`);
  expect(signedOut.status()).toBe(401);
  expect(await signedOut.text()).toContain('Sign in to manage your listing');
  const post = await anonymous.request.post(`${baseURL}${spa.path}`, { form: { intent: 'delete', photo: '1' } });
  expect(post.status()).toBe(401);
  for (const role of ['client', 'owner'] as const) {
    const context = await browser.newContext();
    await signedIn(role, {}, context);
    expect((await context.request.get(`${baseURL}${spa.path}`)).status(), role).toBe(404);
    const upload = await context.request.post(`${baseURL}${spa.path}`, {
      multipart: { intent: 'upload', photo: { name: 'a.jpg', mimeType: 'image/jpeg', buffer: await photo(600, 400) } },
    });
    expect(upload.status(), role).toBe(404);
    await context.close();
  }
  const admin = await browser.newContext();
  await signedIn('admin', {}, admin);
  expect((await admin.request.get(`${baseURL}${spa.path}`)).status()).toBe(200);
  await admin.close();
  expect(photosOf(spa.id)).toEqual([]);
  for (const path of ['/owner/spas/abc/photos', '/owner/spas/0/photos', '/owner/spas/99999999/photos']) {
    const context = await browser.newContext();
    await signIn(context, owner);
    expect((await context.request.get(`${baseURL}${path}`)).status(), path).toBe(404);
    await context.close();
  }
  await anonymous.close();
});

/** The server's process id, from the port it listens on (for its memory figures). */
const memoryOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
};

// What a refused upload must not leave behind is checked on a server of the
// tests' own, whose uploads folder nothing else writes: on the suite's server,
// photos other tests upload meanwhile would land in the same folder.
test.describe('refused uploads, on a server of their own', () => {
  const uploads = join(e2eDir, 'uploads-refused');
  const server = serverCopyForBlock(70, { UPLOAD_DIR: uploads });

  test('the tier limit: the form says so, and the raw endpoint refuses and stores nothing', async ({ page, context }) => {
    const { url, databasePath: database } = server();
    const owner = createSignedInUser({ role: 'owner' }, database);
    const spa = makeSpa(owner, 'FREE', {}, database);
    addPhotos(
      database,
      spa.id,
      [0, 1, 2].map((i) => ({ url: `/images/spas/spa-0${i + 1}.svg`, alt: `Demo ${i}`, position: i })),
    );
    await context.addCookies([{ name: 'session', value: owner.token, url, httpOnly: true, sameSite: 'Lax' }]);
    await page.goto(`${url}${spa.path}`);
    await expect(page.locator('[data-photo-limit]')).toContainText('Your Free listing can have 3 photos. Delete a photo, or upgrade your plan to show more.');
    await expect(page.getByRole('button', { name: 'Upload photo' })).toHaveCount(0);
    const response = await page.request.post(`${url}${spa.path}`, {
      multipart: { intent: 'upload', photo: { name: 'a.jpg', mimeType: 'image/jpeg', buffer: await photo(800, 600) } },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(422);
    expect(await response.text()).toContain('Your Free listing can have 3 photos.');
    expect(photosOf(spa.id, database)).toHaveLength(3);
    expect(uploadedFiles(uploads)).toEqual([]);

    // Downgraded with more photos than the tier shows: kept, and the page says so.
    addPhotos(database, spa.id, [{ url: '/images/spas/spa-04.svg', alt: 'Demo 4', position: 3 }]);
    await page.reload();
    await expect(page.locator('[data-over-limit]')).toContainText('Your listing shows its first 3 photos on your current plan. The other 1 are kept');
  });

  test('100 hostile uploads through the server: no 5xx, nothing stored; bodies past the cap get 413', async () => {
    test.setTimeout(240_000);
    const { url, databasePath: database, child } = server();
    const owner = createSignedInUser({ role: 'owner' }, database);
    // Inactive: the city's three active Elite places are not ours to take.
    const spa = makeSpa(owner, 'ELITE', { active: false }, database);
    const session = { cookie: `session=${owner.token}` };
    const hostile = await hostileUploads();
    const pid = child.pid ?? null;
    const memoryBefore = pid ? memoryOf(pid) : null;
    let peakRss = 0;
    const sampler = setInterval(() => {
      if (pid) peakRss = Math.max(peakRss, memoryOf(pid).rss);
    }, 20);
    const statuses: Record<number, number> = {};
    try {
      for (const upload of hostile) {
        const form = new FormData();
        form.set('intent', 'upload');
        form.set('photo', new File([new Uint8Array(upload.bytes)], upload.name, { type: upload.type }));
        const { bytes, contentType } = await encodeForm(form);
        // The server may answer a refused upload before the body is all sent and close: this client reads that answer.
        const { status } = await postChunked(`${url}${spa.path}`, bytes, { contentType, headers: session });
        statuses[status] = (statuses[status] ?? 0) + 1;
        expect([400, 413, 415, 422], `${upload.label}: ${status}`).toContain(status);
      }
    } finally {
      clearInterval(sampler);
    }
    expect(photosOf(spa.id, database)).toEqual([]);
    expect(uploadedFiles(uploads)).toEqual([]);
    if (pid && memoryBefore) {
      const after = memoryOf(pid);
      test.info().annotations.push({
        type: 'figures',
        description: `hostile uploads over HTTP: ${JSON.stringify(statuses)}; server RSS ${Math.round(memoryBefore.rss / 1e6)} MB before, sampled peak ${Math.round(peakRss / 1e6)} MB, VmHWM ${Math.round(memoryBefore.peak / 1e6)} -> ${Math.round(after.peak / 1e6)} MB`,
      });
      expect(peakRss - memoryBefore.rss).toBeLessThan(400e6);
    }

    // The 10 MB exception is this route's alone: 12 MB here, and 1 MB anywhere else, are refused before the app.
    const tooBig = await postChunked(`${url}${spa.path}`, 12 * 1024 * 1024, { contentType: 'multipart/form-data; boundary=x', headers: session });
    expect(tooBig.status).toBe(413);
    const elsewhere = await postChunked(`${url}/owner/dashboard`, 1024 * 1024, { contentType: 'multipart/form-data; boundary=x', headers: session });
    expect(elsewhere.status).toBe(413);
    expect(uploadedFiles(uploads)).toEqual([]);
  });
});

test.describe('published pages', () => {
  test.describe.configure({ mode: 'serial' });
  let standIn: Server;
  let thumbnail: Buffer;
  test.beforeAll(async () => {
    thumbnail = await photo(1280, 720, 'jpeg', 9);
    standIn = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/oembed') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            title: 'Hydrafacial, start to glow',
            author_name: 'Photo Test Spa',
            provider_name: 'YouTube',
            thumbnail_url: `http://127.0.0.1:${Number(new URL(baseURL).port) + 1}/thumb.jpg`,
          }),
        );
      }
      if (url.pathname === '/thumb.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(thumbnail);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => standIn.listen(Number(new URL(baseURL).port) + 1, '127.0.0.1', resolve));
  });
  test.afterAll(() => standIn?.close());

  test('the spa page and its card show the uploads as <picture>, the social card from our cache; demo photos still work', async ({
    page,
    signedIn,
    listing,
  }) => {
    test.setTimeout(300_000);
    const owner = await signedIn('owner');
    const spa = photoPage(listing(owner, photoListing('PREMIUM', 'https://www.youtube.com/watch?v=e2e-card')));
    await page.goto(spa.path);
    await upload(page, await photo(1600, 1067, 'jpeg', 11), 'a.jpg', 'Reception');
    await expect(page.getByRole('status')).toContainText('Photo uploaded');
    await upload(page, await photo(1600, 1067, 'jpeg', 12), 'b.jpg', 'Laser suite');
    await expect(page.getByRole('status')).toContainText('Photo uploaded');
    await page.getByRole('button', { name: 'Refresh the card' }).click();
    await expect(page.getByRole('status')).toContainText('Social card refreshed');
    await expect(page.locator('[data-social-status]')).toContainText('Hydrafacial, start to glow');

    // Publish, as the rebuild queue would.
    await buildSiteAlongside(site);
    await page.goto(`/spas/${spa.slug}`);
    const hero = page.locator('header picture img');
    await expect(hero).toHaveAttribute('src', coverOf(spa.id)!);
    await expect(hero).toHaveAttribute('width', '1200');
    await expect(page.locator('header picture source[type="image/avif"]')).toHaveAttribute(
      'srcset',
      /-400\.avif 400w, .*-800\.avif 800w, .*-1200x800\.avif 1200w/,
    );
    await expect(page.locator('[data-gallery] img')).toHaveCount(2);
    await expect(page.locator('[data-gallery] img').nth(1)).toHaveAttribute('alt', 'Laser suite');
    expect(await hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // The social card: our title and our thumbnail, no foreign frame or script.
    const card = page.locator('[data-social-card]');
    await expect(card).toContainText('Hydrafacial, start to glow');
    await expect(card.locator('img')).toHaveAttribute('src', /^\/uploads\/social\//);
    await expect(page.locator('iframe')).toHaveCount(0);
    const axe = await axeBuilder(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: test.info().outputPath(`spa-page-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Demo listings keep their photos.
    await page.goto('/sitemap');
    await page.getByRole('main').locator('a[href^="/spas/"]').first().click();
    const demoHero = page.locator('header img').first();
    await expect(demoHero).toHaveAttribute('src', /^\/images\//);
    expect(await demoHero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });
});

for (const width of [375, 1280]) {
  test(`the photo page at ${width}px: no axe violations, screenshot`, async ({ page, signedIn, listing }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const owner = await signedIn('owner');
    const spa = photoPage(listing(owner, photoListing('PREMIUM', 'https://www.youtube.com/watch?v=axe')));
    await page.goto(spa.path);
    await upload(page, await photo(1600, 1067, 'jpeg', 21), 'a.jpg', 'Reception with a harbor view');
    await upload(page, await photo(900, 1200, 'jpeg', 22), 'b.jpg', 'Laser suite');
    // Three, so the position forms and the drag hint are on the page too.
    await upload(page, await photo(1200, 800, 'jpeg', 23), 'c.jpg', 'Treatment room');
    await expect(page.locator('[data-photo-list] li')).toHaveCount(3);
    await expect(page.locator('[data-position-form]')).toHaveCount(3);
    const results = await axeBuilder(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`photos-${width}.png`), fullPage: true });
  });
}
