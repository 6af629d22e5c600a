// The editors' desk (/admin, role admin only): listings awaiting review
// (approve, or reject with a reason the owner is mailed), activate,
// deactivate, verify, feature; "Rebuild now"; every action written to the
// audit log in the same transaction as the change. Plain form posts; the page
// redirects after a success (PRG) and shows a refusal in place.
import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { auditLog, cities, spaPhotos, spas, users, type AuditAction } from '#db/schema.ts';
import { brand } from '#content/site.ts';
import { idSchema } from '#lib/ids.ts';
import { isFeatured, isVerified } from '#lib/tiers.ts';
import { conflict, invalid, malformed, notFound, ok, type Result } from '#lib/result.ts';
import { db } from '../db.ts';
import { spaInbox } from '../db-helpers.ts';
import { sendMailInBackground } from '../mail/mail.ts';
import { renderEmail } from '../mail/layout.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { DASHBOARD_NOTICES, handleDashboardAction } from '../bookings/owner-actions.ts';
import { askForRebuild } from './publishing.ts';
import { recordAudit } from './audit.ts';
import type { SessionUser } from '../auth/sessions.ts';

export const REJECT_REASON_MAX = 1_000;

export const ADMIN_NOTICES = {
  approved: 'Listing approved. It goes live with the next build; the owner has been told.',
  rejected: 'Listing rejected. The owner has the reason by e-mail.',
  activated: 'Listing activated.',
  deactivated: 'Listing deactivated. It leaves the directory with the next build.',
  verified: 'Listing verified.',
  // The flag is kept, but the listing's plan does not show it (issue 26: "done" and nothing public changed).
  'verified-hidden': 'Listing verified. Only Elite listings show the verified badge, so its page shows nothing new until it moves to Elite.',
  unverified: 'Verified badge removed.',
  featured: 'Listing featured.',
  'featured-hidden': 'Listing featured. Only Premium and Elite listings show featured placement, so nothing public changes until it upgrades.',
  unfeatured: 'Listing no longer featured.',
  rebuild: 'Rebuild asked for. The queue starts it within a second or two.',
  // The bookings and leads lists are the dashboard's, and so are their notices.
  ...DASHBOARD_NOTICES,
} as const;
export type AdminNotice = keyof typeof ADMIN_NOTICES;

const listingAction = <T extends string>(intent: T) => z.object({ intent: z.literal(intent), id: idSchema });

/** One schema per action the page's forms post. */
export const adminActionSchema = z.discriminatedUnion('intent', [
  listingAction('approve'),
  z.object({
    intent: z.literal('reject'),
    id: idSchema,
    reason: z.string().trim().min(1, 'Give the owner a reason').max(REJECT_REASON_MAX, `The reason may be at most ${REJECT_REASON_MAX} characters`),
  }),
  listingAction('activate'),
  listingAction('deactivate'),
  listingAction('verify'),
  listingAction('unverify'),
  listingAction('feature'),
  listingAction('unfeature'),
  z.object({ intent: z.literal('rebuild') }),
]);

/** The notice to show and the listing it concerns; refused as not_found, conflict, invalid (the reason) or malformed (an unknown action). */
export type AdminActionResult = Result<{ notice: AdminNotice; spaId?: number }>;

const LISTING_GONE = 'That listing no longer exists.';

/** Where a listing's news goes: its owner, else the address on the listing. */
function listingInbox(spaId: number): { name: string; to: string | null } | null {
  const row = db.select({ name: spas.name, to: spaInbox }).from(spas).leftJoin(users, eq(spas.ownerId, users.id)).where(eq(spas.id, spaId)).get();
  return row ?? null;
}

export function rejectionMail(to: string, spaName: string, reason: string, origin: string): MailMessage {
  return {
    to,
    subject: `Your listing “${spaName}” was not approved`,
    ...renderEmail({
      preheader: 'An editor reviewed your listing and could not approve it yet.',
      heading: 'Your listing was not approved',
      paragraphs: [
        `An editor of ${brand.name} reviewed “${spaName}” and could not approve it for the directory yet. The reason:`,
        reason,
        'You can change the listing from your dashboard; reply to this e-mail if you have a question.',
      ],
      action: { label: 'Open your dashboard', url: new URL('/owner/dashboard', origin).href },
    }),
  };
}

export function approvalMail(to: string, spaName: string, origin: string): MailMessage {
  return {
    to,
    subject: `Your listing “${spaName}” is approved`,
    ...renderEmail({
      preheader: 'Your listing is going live in the directory.',
      heading: 'Your listing is approved',
      paragraphs: [`An editor of ${brand.name} approved “${spaName}”. It appears in the directory within a minute.`],
      action: { label: 'Open your dashboard', url: new URL('/owner/dashboard', origin).href },
    }),
  };
}

type ListingChange = Partial<Pick<typeof spas.$inferInsert, 'active' | 'verified' | 'featured' | 'reviewStatus' | 'reviewNote'>>;

const CHANGES: Record<'activate' | 'deactivate' | 'verify' | 'unverify' | 'feature' | 'unfeature', { change: ListingChange; notice: AdminNotice }> = {
  activate: { change: { active: true }, notice: 'activated' },
  deactivate: { change: { active: false }, notice: 'deactivated' },
  verify: { change: { verified: true }, notice: 'verified' },
  unverify: { change: { verified: false }, notice: 'unverified' },
  feature: { change: { featured: true }, notice: 'featured' },
  unfeature: { change: { featured: false }, notice: 'unfeatured' },
};

/** The database's own refusals (the Elite cap per city) in words an editor can act on. */
function databaseRefusal(error: unknown): AdminActionResult {
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes('Elite tier is at capacity')) return conflict('This city already has 3 active Elite listings: deactivate one first.');
  throw error;
}

interface ListingActionSpec {
  action: AuditAction;
  change: ListingChange;
  /** The notice, or one chosen by the listing as it was (its plan). */
  notice: AdminNotice | ((spa: typeof spas.$inferSelect) => AdminNotice);
  detail?: string;
  /** Why the action does not apply to this listing now, or null. */
  precondition?: (spa: typeof spas.$inferSelect) => string | null;
  /** Mail for the owner: queued in the same transaction as the change, so both happen or neither. */
  mail?: (to: string, spaName: string) => MailMessage;
}

function changeListing(user: SessionUser, spaId: number, spec: ListingActionSpec): AdminActionResult {
  try {
    return db.transaction(() => {
      const spa = db.select().from(spas).where(eq(spas.id, spaId)).get();
      if (!spa) return notFound(LISTING_GONE);
      const problem = spec.precondition?.(spa);
      if (problem) return conflict(problem);
      // updated_at tells the owner dashboard the change is not live until the next build.
      db.update(spas)
        .set({ ...spec.change, updatedAt: new Date() })
        .where(eq(spas.id, spaId))
        .run();
      recordAudit(user, spec.action, `spa:${spaId}`, spec.detail ?? spa.name);
      const inbox = spec.mail ? listingInbox(spaId) : null;
      if (spec.mail && inbox?.to) sendMailInBackground(spec.mail(inbox.to, inbox.name));
      return ok({ notice: typeof spec.notice === 'function' ? spec.notice(spa) : spec.notice, spaId });
    });
  } catch (error) {
    return databaseRefusal(error);
  }
}

/** Handles one post of the /admin page. The caller has checked the role. */
export function handleAdminAction(form: URLSearchParams, user: SessionUser, origin: string): AdminActionResult {
  if (user.role !== 'admin') return notFound('Not found.');
  const intent = form.get('intent');
  // The bookings and leads lists are the dashboard's components; their forms post here.
  if (intent === 'booking' || intent === 'lead') {
    const result = handleDashboardAction(form, user, origin);
    return result.ok ? ok({ notice: result.value }) : result;
  }
  const parsed = adminActionSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0] === undefined ? undefined : String(issue.path[0]);
    if (field === 'id') return notFound(LISTING_GONE);
    const message = issue?.message ?? 'Unknown action.';
    return field === 'reason' ? invalid({ reason: message }, message) : malformed(message);
  }
  const action = parsed.data;
  switch (action.intent) {
    case 'rebuild':
      db.transaction(() => recordAudit(user, 'rebuild', 'site'));
      askForRebuild();
      return ok({ notice: 'rebuild' });
    case 'approve':
      return changeListing(user, action.id, {
        action: 'approve',
        change: { reviewStatus: 'approved', reviewNote: null, active: true },
        notice: 'approved',
        precondition: (spa) => (spa.reviewStatus === 'approved' ? 'This listing is already approved.' : null),
        mail: (to, name) => approvalMail(to, name, origin),
      });
    case 'reject':
      return changeListing(user, action.id, {
        action: 'reject',
        change: { reviewStatus: 'rejected', reviewNote: action.reason, active: false },
        notice: 'rejected',
        detail: action.reason,
        mail: (to, name) => rejectionMail(to, name, action.reason, origin),
      });
    default: {
      const { change, notice } = CHANGES[action.intent];
      return changeListing(user, action.id, {
        action: action.intent,
        change,
        notice: (spa) =>
          notice === 'verified' && !isVerified({ ...spa, verified: true })
            ? 'verified-hidden'
            : notice === 'featured' && !isFeatured({ ...spa, featured: true })
              ? 'featured-hidden'
              : notice,
        precondition: (spa) => (action.intent === 'activate' && spa.reviewStatus !== 'approved' ? 'Approve the listing before activating it.' : null),
      });
    }
  }
}

const listingColumns = {
  id: spas.id,
  name: spas.name,
  slug: spas.slug,
  tier: spas.tier,
  active: spas.active,
  verified: spas.verified,
  featured: spas.featured,
  reviewStatus: spas.reviewStatus,
  reviewNote: spas.reviewNote,
  createdAt: spas.createdAt,
  updatedAt: spas.updatedAt,
  city: cities.name,
  ownerEmail: users.email,
  spaEmail: spas.email,
};

/** The photos an editor sees on a listing awaiting review: the first few, in order. */
export const REVIEW_PHOTOS = 6;

/**
 * Listings waiting for an editor, oldest first (first come, first reviewed),
 * with what the editor must judge (issue 26: the card showed a name only):
 * the listing's words, contact details and first photos.
 */
export function listAwaitingReview(limit = 100) {
  const rows = db
    .select({
      ...listingColumns,
      description: spas.description,
      address: spas.address,
      phone: spas.phone,
      website: spas.website,
    })
    .from(spas)
    .innerJoin(cities, eq(spas.cityId, cities.id))
    .leftJoin(users, eq(spas.ownerId, users.id))
    .where(eq(spas.reviewStatus, 'pending'))
    .orderBy(asc(spas.createdAt), asc(spas.id))
    .limit(limit)
    .all();
  const photos = rows.length
    ? db
        .select({ spaId: spaPhotos.spaId, url: spaPhotos.url, alt: spaPhotos.alt })
        .from(spaPhotos)
        .where(
          inArray(
            spaPhotos.spaId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(asc(spaPhotos.spaId), asc(spaPhotos.position), asc(spaPhotos.id))
        .all()
    : [];
  return rows.map((row) => ({ ...row, photos: photos.filter((photo) => photo.spaId === row.id).slice(0, REVIEW_PHOTOS) }));
}

export const LISTINGS_PER_PAGE = 25;

/** Every listing, by name, or those whose name, slug or owner matches `q`; one page at a time. */
export function listListings({ q = '', page = 1 }: { q?: string; page?: number } = {}) {
  const term = q.trim().toLowerCase().slice(0, 100);
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const matches = (column: unknown) => sql`${column} like ${pattern} escape '\\'`;
  const filter = term ? or(matches(sql`lower(${spas.name})`), matches(spas.slug), matches(users.email)) : undefined;
  const total = db.select({ n: count() }).from(spas).leftJoin(users, eq(spas.ownerId, users.id)).where(filter).get()?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / LISTINGS_PER_PAGE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = db
    .select(listingColumns)
    .from(spas)
    .innerJoin(cities, eq(spas.cityId, cities.id))
    .leftJoin(users, eq(spas.ownerId, users.id))
    .where(filter)
    .orderBy(asc(sql`lower(${spas.name})`), asc(spas.id))
    .limit(LISTINGS_PER_PAGE)
    .offset((current - 1) * LISTINGS_PER_PAGE)
    .all();
  return { rows, total, page: current, pages, q: term };
}

export const AUDIT_PER_PAGE = 50;

/** The audit log, newest first, one page at a time. */
export function listAudit(page = 1) {
  const total = db.select({ n: count() }).from(auditLog).get()?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / AUDIT_PER_PAGE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = db
    .select({
      id: auditLog.id,
      actorEmail: auditLog.actorEmail,
      action: auditLog.action,
      target: auditLog.target,
      detail: auditLog.detail,
      at: auditLog.at,
      spaName: spas.name,
      spaSlug: spas.slug,
    })
    .from(auditLog)
    .leftJoin(spas, and(sql`${auditLog.target} like 'spa:%'`, eq(spas.id, sql`cast(substr(${auditLog.target}, 5) as integer)`)))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(AUDIT_PER_PAGE)
    .offset((current - 1) * AUDIT_PER_PAGE)
    .all();
  return { rows, total, page: current, pages };
}

/** Who may open /admin/*: editors; a signed-out visitor is asked to sign in (401); anyone else finds nothing there (404). */
export function adminAccess(user: SessionUser | null): 'ok' | 'sign-in' | 'not-found' {
  if (!user) return 'sign-in';
  return user.role === 'admin' ? 'ok' : 'not-found';
}
