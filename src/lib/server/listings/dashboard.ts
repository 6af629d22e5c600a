// The owner dashboard's read model and its own forms. Every number is counted
// from stored rows (rulings: no placeholders): page views from
// analytics_events, outbound clicks, leads, booking requests by status, the
// plan and its subscription; and whether each listing's latest change is live
// (src/lib/server/admin/publishing.ts). The page (src/pages/owner/dashboard.astro)
// only renders this.
import { and, desc, eq, gte, inArray, max, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import {
  analyticsEvents,
  bookings,
  BOOKING_STATUSES,
  cities,
  clicks,
  leads,
  offers,
  services,
  spaPhotos,
  spas,
  subscriptions,
  type BookingStatus,
} from '#db/schema.ts';
import { pacificDate, addDays } from '#lib/dates.ts';
import { idSchema } from '#lib/ids.ts';
import { invalid, notFound, ok, unavailable, type Result } from '#lib/result.ts';
import { getStripe } from '../billing/billing.ts';
import { openBillingPortal } from '../billing/checkout.ts';
import { db } from '../db.ts';
import { DASHBOARD_NOTICES, handleDashboardAction } from '../bookings/owner-actions.ts';
import { listingPublishState, publishingStatus, type ListingPublishState, type PublishingStatus } from '../admin/publishing.ts';
import type { ResponseTime } from '#lib/response-time.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { responseTimeFor } from '../trust/response-time.ts';
import { EVENT_LIMITS } from '../directory/analytics.ts';
import { createPendingListing } from './pending.ts';

export const VIEW_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * What the "views" figures count (issue 26): a view of a spa page is stored
 * once per visitor per half hour (analytics.ts, EVENT_LIMITS.viewWindowMs),
 * so they are visits, not page loads, and the dashboard says so.
 */
export const VISIT_NOTE = `a visitor counts once per ${EVENT_LIMITS.viewWindowMs === 30 * 60_000 ? 'half hour' : `${EVENT_LIMITS.viewWindowMs / 60_000} minutes`}`;

export const OWNER_DASHBOARD_NOTICES = {
  ...DASHBOARD_NOTICES,
  'spa-added': 'Your new listing is saved. An editor reviews it before it appears in the directory; we will e-mail you.',
} as const;
export type OwnerDashboardNotice = keyof typeof OWNER_DASHBOARD_NOTICES;

export const CLICK_GROUPS = ['phone', 'website', 'booking', 'other'] as const;
export type ClickGroup = (typeof CLICK_GROUPS)[number];

export interface DayCount {
  /** YYYY-MM-DD, Pacific. */
  date: string;
  views: number;
}

export interface SpaDashboard {
  id: number;
  name: string;
  slug: string;
  city: string;
  tier: 'FREE' | 'PREMIUM' | 'ELITE';
  active: boolean;
  reviewStatus: 'pending' | 'approved' | 'rejected';
  views: { total: number; days: DayCount[] };
  clicks: Record<ClickGroup, number> & { total: number };
  leads: { total: number; fresh: number };
  bookings: Record<BookingStatus, number> & { total: number };
  /** How fast the spa answers requests (last 90 days), as clients see it on the spa page once there are enough. */
  responseTime: ResponseTime;
  subscription: { status: string; renewsAt: Date | null; cancelAtPeriodEnd: boolean; billing: string | null } | null;
  /** The spa has a Stripe customer: "Manage billing" can open its portal. */
  hasBillingAccount: boolean;
  publishing: ListingPublishState;
}

/** Which of the spa's links a click followed, from the stored target (computed from the listing when it was clicked). */
export function clickGroup(target: string, spa: { website: string | null; bookingLink: string | null }): ClickGroup {
  if (target.startsWith('tel:')) return 'phone';
  if (spa.bookingLink && target === spa.bookingLink) return 'booking';
  if (spa.website && target === spa.website) return 'website';
  return 'other';
}

/** The last `days` Pacific dates ending today, each with its count (0 when none). */
export function fillDays(counts: Map<string, number>, today: string, days = VIEW_DAYS): DayCount[] {
  return Array.from({ length: days }, (_, i) => {
    const date = addDays(today, i - days + 1);
    return { date, views: counts.get(date) ?? 0 };
  });
}

function viewsByDay(spaId: number, now: Date): { total: number; days: DayCount[] } {
  const today = pacificDate(now);
  const since = new Date(now.getTime() - VIEW_DAYS * DAY_MS);
  // Counted per hour in SQL, then put on Pacific days here: SQLite knows no time zones.
  const hours = db
    .select({ hour: sql<number>`${analyticsEvents.occurredAt} / 3600000`, n: sql<number>`count(*)` })
    .from(analyticsEvents)
    .where(
      and(
        eq(analyticsEvents.entityType, 'spa'),
        eq(analyticsEvents.entityId, String(spaId)),
        eq(analyticsEvents.eventType, 'view'),
        gte(analyticsEvents.occurredAt, since),
      ),
    )
    .groupBy(sql`1`)
    .all();
  const counts = new Map<string, number>();
  for (const { hour, n } of hours) {
    const date = pacificDate(new Date(hour * 3_600_000));
    counts.set(date, (counts.get(date) ?? 0) + n);
  }
  const days = fillDays(counts, today);
  return { total: days.reduce((sum, day) => sum + day.views, 0), days };
}

/** The owner's listings with their numbers (an editor sees the listings they own, like anyone). */
export function ownerDashboard(user: Pick<SessionUser, 'id'>, now = new Date(), status: PublishingStatus = publishingStatus(now.getTime())): SpaDashboard[] {
  const rows = db
    .select({
      id: spas.id,
      name: spas.name,
      slug: spas.slug,
      city: cities.name,
      tier: spas.tier,
      active: spas.active,
      reviewStatus: spas.reviewStatus,
      reviewNote: spas.reviewNote,
      website: spas.website,
      bookingLink: spas.bookingLink,
      stripeCustomerId: spas.stripeCustomerId,
      updatedAt: spas.updatedAt,
    })
    .from(spas)
    .innerJoin(cities, eq(spas.cityId, cities.id))
    .where(eq(spas.ownerId, user.id))
    .orderBy(sql`lower(${spas.name})`, spas.id)
    .all();
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const since = new Date(now.getTime() - VIEW_DAYS * DAY_MS);

  const clickRows = db
    .select({ spaId: clicks.spaId, target: clicks.targetUrl, n: sql<number>`count(*)` })
    .from(clicks)
    .where(and(inArray(clicks.spaId, ids), gte(clicks.clickedAt, since)))
    .groupBy(clicks.spaId, clicks.targetUrl)
    .all();
  const leadRows = db
    .select({ spaId: leads.spaId, total: sql<number>`count(*)`, fresh: sql<number>`coalesce(sum(${leads.status} = 'new'), 0)` })
    .from(leads)
    .where(inArray(leads.spaId, ids))
    .groupBy(leads.spaId)
    .all();
  const bookingRows = db
    .select({ spaId: bookings.spaId, status: bookings.status, n: sql<number>`count(*)` })
    .from(bookings)
    .where(inArray(bookings.spaId, ids))
    .groupBy(bookings.spaId, bookings.status)
    .all();
  const subscriptionRows = db
    .select({
      spaId: subscriptions.spaId,
      status: subscriptions.status,
      renewsAt: subscriptions.currentPeriodEnd,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      billing: subscriptions.billing,
    })
    .from(subscriptions)
    .where(inArray(subscriptions.spaId, ids))
    .orderBy(desc(subscriptions.updatedAt), desc(subscriptions.id))
    .all();
  // What the spa page shows besides the listing itself: a change there is a change to the page.
  const lastChanges = new Map<number, number>();
  const noteChange = (spaId: number | null, at: Date | number | null) => {
    if (spaId === null || at === null) return;
    const ms = typeof at === 'number' ? at : at.getTime();
    lastChanges.set(spaId, Math.max(lastChanges.get(spaId) ?? 0, ms));
  };
  const latestPerSpa = (spaId: SQLiteColumn, at: SQLiteColumn) =>
    db
      .select({ spaId, at: max(at) })
      .from(spaId.table)
      .where(inArray(spaId, ids))
      .groupBy(spaId)
      .all() as { spaId: number | null; at: Date | number | null }[];
  for (const row of [
    ...latestPerSpa(services.spaId, services.updatedAt),
    ...latestPerSpa(spaPhotos.spaId, spaPhotos.createdAt),
    ...latestPerSpa(offers.spaId, offers.createdAt),
  ])
    noteChange(row.spaId, row.at);

  return rows.map((row) => {
    const clickCounts = { phone: 0, website: 0, booking: 0, other: 0, total: 0 };
    for (const click of clickRows.filter((c) => c.spaId === row.id)) {
      clickCounts[clickGroup(click.target, row)] += click.n;
      clickCounts.total += click.n;
    }
    const bookingCounts = Object.fromEntries(BOOKING_STATUSES.map((s) => [s, 0])) as Record<BookingStatus, number>;
    let bookingTotal = 0;
    for (const b of bookingRows.filter((r) => r.spaId === row.id)) {
      bookingCounts[b.status] = b.n;
      bookingTotal += b.n;
    }
    const lead = leadRows.find((l) => l.spaId === row.id);
    const sub = subscriptionRows.find((s) => s.spaId === row.id);
    noteChange(row.id, row.updatedAt);
    return {
      id: row.id,
      name: row.name,
      slug: row.slug,
      city: row.city,
      tier: row.tier,
      active: row.active,
      reviewStatus: row.reviewStatus,
      views: viewsByDay(row.id, now),
      clicks: clickCounts,
      leads: { total: lead?.total ?? 0, fresh: lead?.fresh ?? 0 },
      bookings: { ...bookingCounts, total: bookingTotal },
      responseTime: responseTimeFor(row.id, now),
      subscription: sub ? { status: sub.status, renewsAt: sub.renewsAt, cancelAtPeriodEnd: sub.cancelAtPeriodEnd, billing: sub.billing } : null,
      hasBillingAccount: row.stripeCustomerId !== null,
      publishing: listingPublishState(
        { active: row.active, reviewStatus: row.reviewStatus, reviewNote: row.reviewNote, lastChangedAt: new Date(lastChanges.get(row.id)!) },
        status,
      ),
    };
  });
}

export const SPA_NAME_MAX = 120;

/** "Add New Spa": a FREE listing, inactive and awaiting review, owned by whoever adds it. */
export const newSpaSchema = z.object({
  name: z.string().trim().min(1, 'Spa name is required').max(SPA_NAME_MAX, `Spa name may be at most ${SPA_NAME_MAX} characters`),
  cityId: idSchema.or(z.literal('').transform(() => null)).pipe(z.number({ message: 'Choose a city' })),
});

/** The notice to show, or where to go on (Stripe's portal); refused with the reason's message (and, adding a spa, the field). */
export type OwnerPostResult = Result<{ notice: OwnerDashboardNotice } | { redirect: string }>;

export function addSpa(user: SessionUser, form: URLSearchParams, clientAddress: string | null): OwnerPostResult {
  const parsed = newSpaSchema.safeParse({ name: form.get('name') ?? '', cityId: form.get('cityId') ?? '' });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return invalid({ [String(issue.path[0] ?? 'name')]: issue.message }, issue.message);
  }
  // The same limits and the same write as /owner/signup: one way to add a listing.
  const created = createPendingListing({ name: parsed.data.name, cityId: parsed.data.cityId }, { user }, { clientAddress });
  if (!created.ok) {
    if (created.reason === 'rate_limited') return created;
    const [field, message] = Object.entries(created.fields)[0]!;
    return invalid({ [field]: message }, message);
  }
  return ok({ notice: 'spa-added' });
}

export const BILLING_NOT_CONFIGURED = 'Billing is not configured on this site.';

/** "Manage billing" without JavaScript: the same check and portal as POST /api/stripe/portal, then a redirect to Stripe. */
export async function openPortal(user: SessionUser, form: URLSearchParams, origin: string): Promise<OwnerPostResult> {
  const stripe = getStripe();
  if (!stripe) return unavailable(BILLING_NOT_CONFIGURED);
  const portal = await openBillingPortal(user, { spaId: form.get('spaId') ?? '' }, stripe, { origin });
  if (portal.ok) return ok({ redirect: portal.value.url });
  // Someone else's spa or no such spa: the same answer, so nothing is learnt.
  if (portal.reason === 'forbidden' || portal.reason === 'invalid') return notFound('That listing could not be found.');
  return portal;
}

/** Every form of the dashboard posts here: its own (add a spa, billing) and the bookings' and leads'. */
export async function handleOwnerDashboardPost(
  form: URLSearchParams,
  user: SessionUser,
  origin: string,
  clientAddress: string | null,
): Promise<OwnerPostResult> {
  const intent = form.get('intent');
  if (intent === 'add-spa') return addSpa(user, form, clientAddress);
  if (intent === 'billing') return openPortal(user, form, origin);
  const result = handleDashboardAction(form, user, origin);
  return result.ok ? ok({ notice: result.value }) : result;
}
