import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, cities, spas } from '#db/schema.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { testTag } from '#tests/support/tagged-rows.ts';
import { insertUser } from '#tests/support/users.ts';
import type { SessionUser } from '../auth/sessions.ts';

const sent: MailMessage[] = [];
const rebuilds: number[] = [];
vi.mock('../mail/mail.ts', () => ({ scheduleMail: () => {}, unscheduleMail: () => {}, sendMailInBackground: (message: MailMessage) => sent.push(message) }));
vi.mock('./publishing.ts', () => ({ askForRebuild: () => rebuilds.push(Date.now()) }));

const { adminAccess, handleAdminAction, listAudit, listAwaitingReview, listListings } = await import('./admin.ts');
const { db } = await import('../db.ts');

const TAG = testTag('admin-test');
const ORIGIN = 'https://ocmedspadirectory.com';
let admin: SessionUser;
let owner: SessionUser;
let cityId = 0;

function makeSpa(key: string, values: Partial<typeof spas.$inferInsert> = {}) {
  return db
    .insert(spas)
    .values({ name: `Admin Spa ${key}`, slug: `${TAG}-${key}`, cityId, ownerId: owner.id, tier: 'FREE', active: false, reviewStatus: 'pending', ...values })
    .returning()
    .get();
}
const spaRow = (id: number) => db.select().from(spas).where(eq(spas.id, id)).get()!;
const post = (fields: Record<string, string | number>) =>
  handleAdminAction(new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])), admin, ORIGIN);
const auditFor = (id: number) =>
  db
    .select()
    .from(auditLog)
    .where(eq(auditLog.target, `spa:${id}`))
    .all();

beforeAll(() => {
  cityId = db.select({ id: cities.id }).from(cities).limit(1).get()!.id;
  admin = insertUser(`${TAG}-admin@example.com`, 'admin');
  owner = insertUser(`${TAG}-owner@example.com`, 'owner');
});
beforeEach(() => {
  sent.length = 0;
  rebuilds.length = 0;
});

describe('who may use the desk', () => {
  it('asks the signed-out to sign in and shows nothing to owners and clients', () => {
    expect(adminAccess(null)).toBe('sign-in');
    expect(adminAccess({ ...admin, role: 'owner' })).toBe('not-found');
    expect(adminAccess({ ...admin, role: 'client' })).toBe('not-found');
    expect(adminAccess(admin)).toBe('ok');
  });

  it('refuses an action from anyone but an editor, changing nothing', () => {
    const spa = makeSpa('not-admin');
    const result = handleAdminAction(new URLSearchParams({ intent: 'approve', id: String(spa.id) }), { ...admin, role: 'owner' }, ORIGIN);
    expect(result).toMatchObject({ ok: false, reason: 'not_found' });
    expect(spaRow(spa.id)).toMatchObject({ reviewStatus: 'pending', active: false });
    expect(auditFor(spa.id)).toEqual([]);
  });
});

describe('reviewing a listing', () => {
  it('lists pending listings, oldest first, with the owner', () => {
    const first = makeSpa('queue-1', { createdAt: new Date('2020-01-01T00:00:00Z') });
    const pending = listAwaitingReview(1000);
    expect(pending.map((s) => s.id)).toContain(first.id);
    expect(pending[0]!.createdAt.getTime()).toBeLessThanOrEqual(first.createdAt.getTime());
    expect(pending.find((s) => s.id === first.id)?.ownerEmail).toBe(owner.email);
  });

  it('approve makes it public, tells the owner and logs who did it', () => {
    const spa = makeSpa('approve');
    const before = spaRow(spa.id).updatedAt;
    expect(post({ intent: 'approve', id: spa.id })).toEqual({ ok: true, value: { notice: 'approved', spaId: spa.id } });
    const after = spaRow(spa.id);
    expect(after).toMatchObject({ reviewStatus: 'approved', active: true, reviewNote: null });
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(sent).toMatchObject([{ to: owner.email, subject: `Your listing “${spa.name}” is approved` }]);
    expect(auditFor(spa.id)).toMatchObject([{ action: 'approve', actorId: admin.id, actorEmail: admin.email }]);
    expect(post({ intent: 'approve', id: spa.id })).toMatchObject({ ok: false, reason: 'conflict' });
  });

  it('reject needs a reason; with one, hides the listing and mails the reason to the owner', () => {
    const spa = makeSpa('reject');
    expect(post({ intent: 'reject', id: spa.id, reason: '   ' })).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { reason: 'Give the owner a reason' },
      message: 'Give the owner a reason',
    });
    expect(post({ intent: 'reject', id: spa.id, reason: 'x'.repeat(1001) })).toMatchObject({
      ok: false,
      reason: 'invalid',
      fields: { reason: expect.any(String) },
    });
    expect(spaRow(spa.id).reviewStatus).toBe('pending');
    expect(sent).toEqual([]);

    const reason = 'The address is a P.O. box; a spa needs a street address clients can visit.';
    expect(post({ intent: 'reject', id: spa.id, reason })).toMatchObject({ ok: true, value: { notice: 'rejected' } });
    expect(spaRow(spa.id)).toMatchObject({ reviewStatus: 'rejected', active: false, reviewNote: reason });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe(owner.email);
    expect(sent[0]!.text).toContain(reason);
    expect(sent[0]!.text).toContain(`${ORIGIN}/owner/dashboard`);
    expect(auditFor(spa.id)).toMatchObject([{ action: 'reject', detail: reason }]);
  });

  it('mails the listing’s own address when it has no owner', () => {
    const spa = makeSpa('no-owner', { ownerId: null, email: `${TAG}-front-desk@example.com` });
    post({ intent: 'reject', id: spa.id, reason: 'Duplicate of another listing.' });
    expect(sent.map((m) => m.to)).toEqual([`${TAG}-front-desk@example.com`]);
  });

  it('answers 404 for an id that names nothing or is not an id', () => {
    expect(post({ intent: 'approve', id: 999_999_999 })).toMatchObject({ ok: false, reason: 'not_found' });
    expect(post({ intent: 'approve', id: 'abc' })).toMatchObject({ ok: false, reason: 'not_found' });
    expect(post({ intent: 'explode', id: 1 })).toMatchObject({ ok: false, reason: 'malformed' });
  });
});

describe('activate, verify, feature', () => {
  it('each toggles its flag and is logged', () => {
    const spa = makeSpa('toggles', { reviewStatus: 'approved', active: true });
    for (const [intent, field, value] of [
      ['deactivate', 'active', false],
      ['activate', 'active', true],
      ['verify', 'verified', true],
      ['unverify', 'verified', false],
      ['feature', 'featured', true],
      ['unfeature', 'featured', false],
    ] as const) {
      expect(post({ intent, id: spa.id }), intent).toMatchObject({ ok: true });
      expect(spaRow(spa.id)[field], intent).toBe(value);
    }
    expect(auditFor(spa.id).map((row) => row.action)).toEqual(['deactivate', 'activate', 'verify', 'unverify', 'feature', 'unfeature']);
  });

  it('will not activate a listing nobody approved', () => {
    const spa = makeSpa('unapproved');
    expect(post({ intent: 'activate', id: spa.id })).toMatchObject({ ok: false, reason: 'conflict', message: 'Approve the listing before activating it.' });
    expect(spaRow(spa.id).active).toBe(false);
    expect(auditFor(spa.id)).toEqual([]);
  });

  it('says so when the city has its 3 Elite listings, and logs nothing', () => {
    const city = db
      .insert(cities)
      .values({ name: `${TAG} City`, slug: `${TAG}-city` })
      .returning()
      .get();
    try {
      for (let i = 0; i < 3; i++) makeSpa(`elite-${i}`, { cityId: city.id, tier: 'ELITE', reviewStatus: 'approved', active: true });
      const fourth = makeSpa('elite-4', { cityId: city.id, tier: 'ELITE' });
      expect(post({ intent: 'approve', id: fourth.id })).toMatchObject({ ok: false, reason: 'conflict', message: expect.stringContaining('3 active Elite') });
      expect(spaRow(fourth.id)).toMatchObject({ reviewStatus: 'pending', active: false });
      expect(auditFor(fourth.id)).toEqual([]);
      expect(sent).toEqual([]);
    } finally {
      db.delete(spas).where(eq(spas.cityId, city.id)).run();
      db.delete(cities).where(eq(cities.id, city.id)).run();
    }
  });
});

describe('rebuild now and the lists', () => {
  it('asks the queue for a rebuild and logs it', () => {
    expect(post({ intent: 'rebuild' })).toEqual({ ok: true, value: { notice: 'rebuild' } });
    expect(rebuilds).toHaveLength(1);
    expect(db.select().from(auditLog).where(eq(auditLog.actorId, admin.id)).all().at(-1)).toMatchObject({ action: 'rebuild', target: 'site' });
  });

  it('finds listings by name, slug or owner, a page at a time', () => {
    makeSpa('find-me', { name: `Findable ${TAG}` });
    const found = listListings({ q: `findable ${TAG}` });
    expect(found.rows.map((r) => r.name)).toEqual([`Findable ${TAG}`]);
    expect(listListings({ q: `${TAG}-owner@` }).total).toBeGreaterThan(1);
    expect(listListings({ q: '%' }).total).toBe(0);
    const all = listListings({ page: 2 });
    expect(all.page).toBe(2);
    expect(all.rows.length).toBeLessThanOrEqual(25);
  });

  it('shows the audit log newest first with the listing’s name', () => {
    const log = listAudit();
    expect(log.rows[0]!.at.getTime()).toBeGreaterThanOrEqual(log.rows.at(-1)!.at.getTime());
    expect(log.rows.some((row) => row.spaName?.startsWith('Admin Spa'))).toBe(true);
  });
});
