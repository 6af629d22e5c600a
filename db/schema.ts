// The data model. Money is integer cents (exact); it is served as decimal strings
// by src/lib/money.ts. Timestamps are epoch milliseconds; calendar dates that have
// no time of day (a preferred booking date, an offer's validity) are ISO
// 'YYYY-MM-DD' text in America/Los_Angeles.
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { DayHours, WeeklyHours } from '#lib/opening-hours.ts';
import type { NoShowPolicy } from '#lib/no-show-policy.ts';

export const TIERS = ['FREE', 'PREMIUM', 'ELITE'] as const;
export type Tier = (typeof TIERS)[number];
export const ROLES = ['client', 'owner', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const SERVICE_CATEGORIES = ['facial', 'laser', 'injectable', 'body', 'wellness', 'consultation'] as const;
export type ServiceCategory = (typeof SERVICE_CATEGORIES)[number];
export const BOOKING_STATUSES = ['pending', 'confirmed', 'cancelled', 'completed'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const LEAD_STATUSES = ['new', 'contacted', 'converted', 'lost'] as const;
export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled', 'unpaid'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** A booking's card payment, as Stripe last told us (webhooks only; never the browser). `refunded`: the whole charge was refunded. */
export const PAYMENT_STATUSES = ['unpaid', 'processing', 'paid', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/**
 * What a row of the money ledger (booking_payments) is: a deposit taken at
 * booking, a fee the spa charged for a late cancellation or a no-show, or a
 * refund of one of those (or of a card payment that was superseded).
 */
export const MONEY_KINDS = ['deposit', 'late_cancel_fee', 'no_show_fee', 'refund'] as const;
export type MoneyKind = (typeof MONEY_KINDS)[number];
/** Where a ledger row stands at Stripe: asked, waiting for the client's bank (authentication), done, refused, or withdrawn. */
export const MONEY_STATUSES = ['pending', 'requires_action', 'succeeded', 'failed', 'canceled'] as const;
export type MoneyStatus = (typeof MONEY_STATUSES)[number];
/** Who moved the money: the client (paying a deposit, authenticating), the spa's owner, an editor, or the site itself (an automatic refund). */
export const MONEY_ACTORS = ['client', 'owner', 'admin', 'system'] as const;
export type MoneyActor = (typeof MONEY_ACTORS)[number];
/** What a booking asks of the client's card (issue 25): nothing, a card kept on file, or a deposit. */
export const BOOKING_PROTECTIONS = ['none', 'card', 'deposit'] as const;
/** A protected booking's card step: waiting for the client, done (Stripe's webhook said so), or lapsed unfinished. */
export const SECURE_STATUSES = ['awaiting', 'secured', 'expired'] as const;
export type SecureStatus = (typeof SECURE_STATUSES)[number];
/** The spa's decision on a late cancellation's or a no-show's fee: charged (once), or waived. */
export const FEE_DECISIONS = ['charged', 'waived'] as const;
/** A listing's editorial state: new listings wait for an editor; only approved ones can be public. */
export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const BILLING_PERIODS = ['monthly', 'annual'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];
export const SOCIAL_PLATFORMS = ['instagram', 'tiktok', 'youtube'] as const;
export const ANALYTICS_EVENT_TYPES = ['view', 'click', 'booking', 'conversion'] as const;
export const ANALYTICS_ENTITY_TYPES = ['spa', 'page', 'offer'] as const;
/**
 * How a spa takes bookings (issue 24): `none` is the request form of the spec
 * (the default: a spa that sets nothing keeps it); `instant` confirms a chosen
 * open time at once; `request` holds the chosen time until the owner answers.
 */
export const BOOKING_MODES = ['none', 'instant', 'request'] as const;
export type BookingMode = (typeof BOOKING_MODES)[number];
/** How a booking was made: the request form (a preferred day), or an open time confirmed at once or held for the owner. */
export const BOOKING_CHANNELS = ['request', 'instant', 'hold'] as const;
export type BookingChannel = (typeof BOOKING_CHANNELS)[number];
/** The slot steps an owner may choose, in minutes. */
export const SLOT_STEPS = [5, 10, 15, 20, 30, 60] as const;

const id = () => integer('id').primaryKey({ autoIncrement: true });
/** ELITE 3, PREMIUM 2, anything else 1 (spec 9): the listing order's first key. */
export const TIER_WEIGHT_SQL = sql.raw(`(case "tier" when 'ELITE' then 3 when 'PREMIUM' then 2 else 1 end)`);
/** A moment, stored as epoch milliseconds. */
const timestamp = (name: string) => integer(name, { mode: 'timestamp_ms' });
const createdAt = () =>
  timestamp('created_at')
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);
const updatedAt = () =>
  timestamp('updated_at')
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);
/** created_at and updated_at, both the insert time by default. */
const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
/** The spa a row belongs to: it goes when the spa goes. */
const spaId = () =>
  integer('spa_id')
    .notNull()
    .references(() => spas.id, { onDelete: 'cascade' });
/** The city a row is in (cities are never deleted). */
const cityId = () =>
  integer('city_id')
    .notNull()
    .references(() => cities.id);
const bool = (name: string) => integer(name, { mode: 'boolean' });
const inList = (column: string, values: readonly string[]) => sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);

export const users = sqliteTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    profileImageUrl: text('profile_image_url'),
    role: text('role', { enum: ROLES }).notNull().default('client'),
    stripeCustomerId: text('stripe_customer_id'),
    ...timestamps(),
  },
  (t) => [
    // E-mail addresses are stored lower-cased; the index makes them unique.
    uniqueIndex('users_email_unique').on(t.email),
    check('users_role_check', inList('role', ROLES)),
  ],
);

// Lucia's session model (its current guide): the cookie holds "<id>.<secret>";
// the table keeps the id and only the SHA-256 of the secret, compared in
// constant time, so a leaked table cannot be replayed and lookups by id leak
// nothing about the secret.
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    secretHash: text('secret_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

// Fixed-window counters for rate limits (magic-link requests per address and
// per client). In SQLite so limits survive a restart.
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start').notNull(),
  count: integer('count').notNull(),
});

// Mail that must not be lost: written in the same moment as the change it
// announces, sent by src/lib/server/mail/queue.ts, retried with back-off, and
// picked up again after a crash or restart.
export const mailQueue = sqliteTable(
  'mail_queue',
  {
    id: id(),
    /** The message (MailMessage) as JSON. */
    message: text('message', { mode: 'json' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due; while an attempt runs, the end of its lease. */
    nextAttemptAt: timestamp('next_attempt_at').notNull(),
    sentAt: timestamp('sent_at'),
    failedAt: timestamp('failed_at'),
    lastError: text('last_error'),
    // Scheduled mail (booking reminders): what it is about and of which kind,
    // e.g. 'booking-12:reminder-24h', so a later change can move or drop it;
    // null for mail sent at once.
    key: text('key'),
    /** The time it was scheduled for (nextAttemptAt starts there); null: at once. */
    notBefore: timestamp('not_before'),
    /** Unsent by then, it is dropped instead of sent (a reminder after the appointment is noise). */
    notAfter: timestamp('not_after'),
    createdAt: createdAt(),
  },
  (t) => [index('mail_queue_due_idx').on(t.sentAt, t.failedAt, t.nextAttemptAt), index('mail_queue_key_idx').on(t.key)],
);

// The "sent" marker of keyed mail, one per key and scheduled time, written
// when an attempt begins: the queue delivers at least once, and a reminder
// must never arrive twice (see docs/decisions, reminders).
export const mailSentMarks = sqliteTable(
  'mail_sent_marks',
  {
    key: text('key').notNull(),
    notBefore: timestamp('not_before').notNull(),
    markedAt: timestamp('marked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.notBefore] })],
);

// Only the SHA-256 of a magic-link token is stored.
export const magicTokens = sqliteTable(
  'magic_tokens',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
    used: bool('used').notNull().default(false),
    usedAt: timestamp('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('magic_tokens_token_hash_unique').on(t.tokenHash), index('magic_tokens_email_idx').on(t.email)],
);

export const cities = sqliteTable(
  'cities',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    state: text('state').notNull().default('CA'),
    zipCode: text('zip_code'),
    address: text('address'),
    phone: text('phone'),
    email: text('email'),
    description: text('description'),
    imageUrl: text('image_url'),
    active: bool('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('cities_slug_unique').on(t.slug)],
);

export const spas = sqliteTable(
  'spas',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description'),
    address: text('address'),
    phone: text('phone'),
    email: text('email'),
    website: text('website'),
    imageUrl: text('image_url'),
    bookingLink: text('booking_link'),
    socialFeedUrl: text('social_feed_url'),
    socialPlatform: text('social_platform', { enum: SOCIAL_PLATFORMS }),
    videoUrl: text('video_url'),
    // Opening hours as data (src/lib/opening-hours.ts): { "mon": [["09:00", "18:00"]], ..., "sun": [] }
    // ([]: closed); null when not listed. Wall-clock times in Orange County.
    openingHours: text('opening_hours', { mode: 'json' }).$type<WeeklyHours>(),
    // Hours the old free-text field held that did not read as times (migration
    // 0017): shown as written until the owner sets the hours, which clears it.
    hoursNote: text('hours_note'),
    // Online booking (issue 24, docs/decisions/0028): the mode, and its rules in
    // the spa's local time: no time sooner than the notice, none further ahead
    // than the horizon, start times every step minutes from each opening.
    bookingMode: text('booking_mode', { enum: BOOKING_MODES }).notNull().default('none'),
    minNoticeMinutes: integer('min_notice_minutes').notNull().default(120),
    bookingHorizonDays: integer('booking_horizon_days').notNull().default(60),
    slotStepMinutes: integer('slot_step_minutes').notNull().default(15),
    // Treatment rooms, when the spa counts them: no two appointments share one. Null: rooms do not limit.
    // (These columns' CHECKs are written in migration 0017, on the added columns,
    // so the table is not rebuilt: rebuilding would drop its triggers.)
    treatmentRooms: integer('treatment_rooms'),
    tier: text('tier', { enum: TIERS }).notNull().default('FREE'),
    active: bool('active').notNull().default(true),
    // The directory shows active listings, and only an approved listing may be
    // active: an owner's new listing starts 'pending' and inactive until an
    // editor approves it or its first paid plan starts (Stripe's completed
    // checkout approves it: issue 12); the editor's reason for a rejection is kept.
    reviewStatus: text('review_status', { enum: REVIEW_STATUSES }).notNull().default('approved'),
    reviewNote: text('review_note'),
    featured: bool('featured').notNull().default(false),
    verified: bool('verified').notNull().default(false),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    // The address a signup named as owner, until someone proves it with a
    // sign-in link: the listing then becomes theirs (owner_id) and this is cleared.
    claimEmail: text('claim_email'),
    cityId: cityId(),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    subscriptionStatus: text('subscription_status', { enum: SUBSCRIPTION_STATUSES }),
    // Inside this many hours before a confirmed appointment the client cancels
    // by phone, not online (booking-lifecycle.ts).
    cancellationWindowHours: integer('cancellation_window_hours').notNull().default(24),
    // No-show protection (issue 25, src/lib/no-show-policy.ts): a card on file
    // or a deposit, and the late-cancellation and no-show fees; null: none.
    // New bookings store what it comes to for them (bookings.protection...).
    noShowPolicy: text('no_show_policy', { mode: 'json' }).$type<NoShowPolicy>(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('spas_slug_unique').on(t.slug),
    // The directory's listing order (tier weight, newest, id), county-wide and
    // per city, so a page of results is read in order instead of sorted. The
    // expression must match tierOrder in src/lib/server/directory/directory.ts exactly.
    index('spas_rank_idx').on(t.active, sql`${TIER_WEIGHT_SQL} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`),
    index('spas_city_rank_idx').on(t.cityId, t.active, sql`${TIER_WEIGHT_SQL} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`),
    index('spas_owner_idx').on(t.ownerId),
    index('spas_claim_email_idx').on(t.claimEmail),
    check('spas_tier_check', inList('tier', TIERS)),
    check('spas_review_status_check', inList('review_status', REVIEW_STATUSES)),
  ],
);

// A spa's closed dates and one-off hours (holidays, events): on that Pacific
// date they replace the weekly hours; no ranges means closed all day.
export const spaDateHours = sqliteTable(
  'spa_date_hours',
  {
    spaId: spaId(),
    /** 'YYYY-MM-DD', Pacific. */
    date: text('date').notNull(),
    ranges: text('ranges', { mode: 'json' }).$type<DayHours>().notNull(),
    /** What clients are told ("Thanksgiving"), optional. */
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.spaId, t.date] }), check('spa_date_hours_note_check', sql`note is null or length(note) <= 100`)],
);

// Addresses a spa answered at before an editor changed its slug: /spas/{old}
// answers 301 to the spa's current page (docs/decisions/0018). Renaming a spa
// never changes its slug; only an explicit slug change lands here.
export const spaSlugHistory = sqliteTable(
  'spa_slug_history',
  {
    slug: text('slug').primaryKey(),
    spaId: spaId(),
    createdAt: createdAt(),
  },
  (t) => [index('spa_slug_history_spa_idx').on(t.spaId)],
);

// galleryUrls of the spec, one row per photo; how many a spa may show depends on its tier.
export const spaPhotos = sqliteTable(
  'spa_photos',
  {
    id: id(),
    spaId: spaId(),
    url: text('url').notNull(),
    alt: text('alt').notNull().default(''),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('spa_photos_spa_idx').on(t.spaId, t.position)],
);

export const services = sqliteTable(
  'services',
  {
    id: id(),
    spaId: spaId(),
    name: text('name', { length: 255 }).notNull(),
    description: text('description'),
    priceCents: integer('price_cents').notNull(),
    // What the price is for, when it is not the whole treatment ("per unit", "per syringe").
    priceUnit: text('price_unit'),
    duration: integer('duration').notNull(),
    // Online booking (issue 24): whether clients may book it at an open time,
    // and the minutes after it (clean-up) before its clinician and room are free again.
    bookableOnline: bool('bookable_online').notNull().default(true),
    bufferAfterMinutes: integer('buffer_after_minutes').notNull().default(0),
    category: text('category').notNull(),
    // One of the directory's treatment keys (botox, hydrafacial, ...) when the service is one.
    treatment: text('treatment'),
    imageUrl: text('image_url'),
    active: bool('active').notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('services_spa_name_unique').on(t.spaId, t.name),
    index('services_category_idx').on(t.category),
    index('services_treatment_idx').on(t.treatment, t.spaId),
    // Search matches a lower-cased service name (spec 2, Search results filters).
    index('services_name_search_idx').on(sql`lower(${t.name})`, t.spaId),
    check('services_price_check', sql`price_cents >= 0`),
    check('services_duration_check', sql`duration > 0`),
    check('services_name_length_check', sql`length(name) between 1 and 255`),
  ],
);

export const offers = sqliteTable(
  'offers',
  {
    id: id(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull(),
    originalPriceCents: integer('original_price_cents').notNull(),
    offerPriceCents: integer('offer_price_cents').notNull(),
    // Stored (not derived on read) because the spec lists it as a field; a check keeps it honest.
    savingsCents: integer('savings_cents').notNull(),
    validFrom: text('valid_from'),
    validTo: text('valid_to'),
    cityId: cityId(),
    spaId: spaId(),
    imageUrl: text('image_url'),
    active: bool('active').notNull().default(true),
    featured: bool('featured').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('offers_slug_unique').on(t.slug),
    index('offers_listing_idx').on(t.active, t.featured, t.validTo),
    index('offers_spa_idx').on(t.spaId),
    check('offers_prices_check', sql`offer_price_cents >= 0 and original_price_cents >= offer_price_cents`),
    check('offers_savings_check', sql`savings_cents = original_price_cents - offer_price_cents`),
  ],
);

// serviceIds of the spec, as a join table so the link is checked by foreign keys.
export const offerServices = sqliteTable(
  'offer_services',
  {
    offerId: integer('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.offerId, t.serviceId] })],
);

export const bookings = sqliteTable(
  'bookings',
  {
    id: id(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    serviceId: integer('service_id').references(() => services.id, { onDelete: 'set null' }),
    spaId: integer('spa_id').references(() => spas.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    preferredDate: text('preferred_date'),
    // The appointment's start: set when the spa confirms a request, or when the
    // client chose an open time (then also while a request spa has it on hold).
    scheduledAt: timestamp('scheduled_at'),
    // The end of the treatment (scheduledAt + the service's duration) and the
    // minutes after it its clinician and room stay busy (the service's buffer,
    // as it was when booked). Set for open-time bookings; a trigger moves the
    // end with the start (migration 0017).
    endsAt: timestamp('ends_at'),
    bufferMinutes: integer('buffer_minutes').notNull().default(0),
    clinicianId: integer('clinician_id').references(() => clinicians.id, { onDelete: 'set null' }),
    /** Room 1..spas.treatment_rooms, when the spa counts rooms. */
    room: integer('room'),
    bookedVia: text('booked_via', { enum: BOOKING_CHANNELS }).notNull().default('request'),
    message: text('message'),
    status: text('status', { enum: BOOKING_STATUSES }).notNull().default('pending'),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    // Card payment (checkout): null for a plain request. Set by the webhook only.
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }),
    // The amount the server asked Stripe for (from the service's price), in cents.
    paymentAmountCents: integer('payment_amount_cents'),
    // `created` (epoch seconds) of the last Stripe event applied to the payment,
    // so a late, older delivery cannot undo a newer one.
    paymentEventCreated: integer('payment_event_created'),
    paidAt: timestamp('paid_at'),
    // The secret in the client's manage link, which opens this booking without
    // an account. Kept as is (not hashed) so every later mail can carry the
    // same link; it grants nothing beyond this row (docs/decisions/0009).
    manageToken: text('manage_token'),
    // iCalendar SEQUENCE: raised on every change the client's calendar must apply.
    calendarSequence: integer('calendar_sequence').notNull().default(0),
    // The spa's first answer to the request (a confirmation or a decline by the
    // owner or an admin), set once, in the statement that makes the change: how
    // fast a spa answers is computed from it (response-time.ts).
    firstAnsweredAt: timestamp('first_answered_at'),
    // When the owner was reminded of a request left unanswered for 24 hours; never twice.
    ownerRemindedAt: timestamp('owner_reminded_at'),
    // No-show protection (issue 25, docs/decisions/0030): the spa's policy as
    // it came to for this booking when it was made (amounts in cents, at most
    // the price then; a later change of policy or price never alters them),
    // the card step's state and Stripe's ids for the client's saved card.
    // The triggers of migration 0022 refuse amounts above the price.
    protection: text('protection', { enum: BOOKING_PROTECTIONS }).notNull().default('none'),
    secureStatus: text('secure_status', { enum: SECURE_STATUSES }),
    policyPriceCents: integer('policy_price_cents'),
    policyWindowHours: integer('policy_window_hours'),
    depositCents: integer('deposit_cents'),
    lateCancelFeeCents: integer('late_cancel_fee_cents'),
    noShowFeeCents: integer('no_show_fee_cents'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSetupIntentId: text('stripe_setup_intent_id'),
    stripePaymentMethodId: text('stripe_payment_method_id'),
    // Beside the status (which keeps the spec's four values): the spa marked
    // the client absent, or the client cancelled inside the window.
    noShowAt: timestamp('no_show_at'),
    lateCancelledAt: timestamp('late_cancelled_at'),
    // The owner's one decision on the fee such a booking allows.
    feeDecision: text('fee_decision', { enum: FEE_DECISIONS }),
    feeDecidedAt: timestamp('fee_decided_at'),
    ...timestamps(),
  },
  (t) => [
    index('bookings_user_idx').on(t.userId, t.createdAt),
    index('bookings_email_idx').on(t.email),
    uniqueIndex('bookings_manage_token_unique').on(t.manageToken),
    index('bookings_spa_idx').on(t.spaId, t.status),
    uniqueIndex('bookings_payment_intent_unique').on(t.stripePaymentIntentId),
    check('bookings_status_check', inList('status', BOOKING_STATUSES)),
    // The sweep of card steps left unfinished, and the webhook's way from a SetupIntent to its booking.
    index('bookings_secure_idx').on(t.secureStatus, t.createdAt),
    uniqueIndex('bookings_setup_intent_unique').on(t.stripeSetupIntentId),
    // What the availability engine and the double-booking triggers read: a spa's timed bookings by start.
    index('bookings_spa_time_idx').on(t.spaId, t.scheduledAt),
    index('bookings_clinician_time_idx').on(t.clinicianId, t.scheduledAt),
  ],
);

export const leads = sqliteTable(
  'leads',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    spaId: integer('spa_id').references(() => spas.id, { onDelete: 'set null' }),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    cityId: integer('city_id').references(() => cities.id),
    offerId: integer('offer_id').references(() => offers.id, { onDelete: 'set null' }),
    serviceId: integer('service_id').references(() => services.id, { onDelete: 'set null' }),
    source: text('source'),
    medium: text('medium'),
    campaign: text('campaign'),
    message: text('message'),
    status: text('status', { enum: LEAD_STATUSES }).notNull().default('new'),
    assignedTo: integer('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [index('leads_spa_idx').on(t.spaId, t.status, t.createdAt), check('leads_status_check', inList('status', LEAD_STATUSES))],
);

export const subscriptions = sqliteTable(
  'subscriptions',
  {
    id: id(),
    spaId: spaId(),
    stripeSubscriptionId: text('stripe_subscription_id').notNull(),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    tier: text('tier', { enum: ['PREMIUM', 'ELITE'] }).notNull(),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    currentPeriodStart: timestamp('current_period_start'),
    currentPeriodEnd: timestamp('current_period_end'),
    cancelAtPeriodEnd: bool('cancel_at_period_end').notNull().default(false),
    canceledAt: timestamp('canceled_at'),
    trialStart: timestamp('trial_start'),
    trialEnd: timestamp('trial_end'),
    billing: text('billing', { enum: BILLING_PERIODS }),
    // `created` (epoch seconds) of the last Stripe event applied to this row:
    // older deliveries of the same subscription are ignored.
    lastEventCreated: integer('last_event_created').notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('subscriptions_stripe_id_unique').on(t.stripeSubscriptionId),
    index('subscriptions_spa_idx').on(t.spaId),
    check('subscriptions_tier_check', inList('tier', ['PREMIUM', 'ELITE'])),
    check('subscriptions_status_check', inList('status', SUBSCRIPTION_STATUSES)),
  ],
);

// Stripe webhook events already applied (each takes effect once, however
// often Stripe delivers it).
export const stripeEvents = sqliteTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  created: integer('created').notNull(),
  processedAt: createdAt(),
});

// An open Elite checkout holds one of the city's 3 Elite slots until it
// completes, expires or is released, so a fourth payment can never be taken
// (docs/decisions/0013).
export const checkoutHolds = sqliteTable(
  'checkout_holds',
  {
    id: id(),
    cityId: cityId(),
    spaId: spaId(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    tier: text('tier', { enum: ['PREMIUM', 'ELITE'] }).notNull(),
    checkoutSessionId: text('checkout_session_id'),
    // The SHA-256 of the secret in the checkout's cancel link: coming back
    // from an abandoned Checkout with it expires the session and frees the slot.
    releaseTokenHash: text('release_token_hash'),
    expiresAt: timestamp('expires_at').notNull(),
    releasedAt: timestamp('released_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('checkout_holds_city_idx').on(t.cityId, t.tier, t.releasedAt, t.expiresAt),
    uniqueIndex('checkout_holds_session_unique').on(t.checkoutSessionId),
  ],
);

// The money ledger of bookings (docs/decisions/0030): every deposit, fee and
// refund the site asked Stripe for, one row each, written before Stripe is
// asked (with the idempotency key it is asked with) and updated from its
// answer and its webhooks. The partial unique indexes are the floor under
// "never twice": one live deposit and one live fee per booking, one live
// refund per ledger row (and per payment intent the ledger never held),
// whoever writes and however often.
export const bookingPayments = sqliteTable(
  'booking_payments',
  {
    id: id(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: MONEY_KINDS }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: MONEY_STATUSES }).notNull().default('pending'),
    /** The charge's payment intent (a fee taken from a deposit: the deposit's); for a refund, the intent it refunds. */
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    stripeRefundId: text('stripe_refund_id'),
    /** A refund of a ledger row: which one (null for a payment the ledger never held, a superseded card payment). */
    refundOf: integer('refund_of').references((): AnySQLiteColumn => bookingPayments.id, { onDelete: 'restrict' }),
    /** The key Stripe was asked with: the same request never moves money twice. */
    idempotencyKey: text('idempotency_key').notNull(),
    /** Why: a refund's reason (an editor's words are kept as written), or what the charge was for. */
    reason: text('reason'),
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorRole: text('actor_role', { enum: MONEY_ACTORS }).notNull(),
    /** `created` (epoch seconds) of the last Stripe event applied: older deliveries are ignored. */
    eventCreated: integer('event_created'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('booking_payments_idempotency_unique').on(t.idempotencyKey),
    index('booking_payments_booking_idx').on(t.bookingId, t.createdAt),
    index('booking_payments_created_idx').on(t.createdAt),
    uniqueIndex('booking_payments_one_deposit')
      .on(t.bookingId)
      .where(sql`kind = 'deposit' and status not in ('failed', 'canceled')`),
    uniqueIndex('booking_payments_one_fee')
      .on(t.bookingId)
      .where(sql`kind in ('late_cancel_fee', 'no_show_fee') and status not in ('failed', 'canceled')`),
    uniqueIndex('booking_payments_one_refund')
      .on(t.refundOf)
      .where(sql`kind = 'refund' and refund_of is not null and status <> 'failed'`),
    uniqueIndex('booking_payments_one_intent_refund')
      .on(t.stripePaymentIntentId)
      .where(sql`kind = 'refund' and refund_of is null and status <> 'failed'`),
    uniqueIndex('booking_payments_intent_unique')
      .on(t.stripePaymentIntentId, t.kind)
      .where(sql`kind <> 'refund'`),
    check('booking_payments_kind_check', inList('kind', MONEY_KINDS)),
    check('booking_payments_status_check', inList('status', MONEY_STATUSES)),
    check('booking_payments_actor_check', inList('actor_role', MONEY_ACTORS)),
    check('booking_payments_amount_check', sql`amount_cents > 0`),
    check('booking_payments_reason_length_check', sql`reason is null or length(reason) <= 500`),
  ],
);

// Outbound clicks (booking links, websites, social). ipHash, never the address itself.
export const clicks = sqliteTable(
  'clicks',
  {
    id: id(),
    url: text('url').notNull(),
    targetUrl: text('target_url').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    sessionId: text('session_id'),
    ipHash: text('ip_hash'),
    userAgent: text('user_agent'),
    referer: text('referer'),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    spaId: integer('spa_id').references(() => spas.id, { onDelete: 'set null' }),
    clickedAt: createdAt(),
  },
  (t) => [index('clicks_spa_idx').on(t.spaId, t.clickedAt)],
);

export const analyticsEvents = sqliteTable(
  'analytics_events',
  {
    id: id(),
    eventType: text('event_type', { enum: ANALYTICS_EVENT_TYPES }).notNull(),
    entityType: text('entity_type', { enum: ANALYTICS_ENTITY_TYPES }).notNull(),
    entityId: text('entity_id'),
    tier: text('tier'),
    source: text('source'),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    sessionId: text('session_id'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    userAgent: text('user_agent'),
    referrer: text('referrer'),
    ipHash: text('ip_hash'),
    occurredAt: timestamp('occurred_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('analytics_entity_idx').on(t.entityType, t.entityId, t.eventType, t.occurredAt),
    check('analytics_event_type_check', inList('event_type', ANALYTICS_EVENT_TYPES)),
    check('analytics_entity_type_check', inList('entity_type', ANALYTICS_ENTITY_TYPES)),
  ],
);

export const newsletterSubscribers = sqliteTable(
  'newsletter_subscribers',
  {
    id: id(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    preferences: text('preferences', { mode: 'json' }).$type<string[]>(),
    unsubscribeToken: text('unsubscribe_token').notNull(),
    subscribed: bool('subscribed').notNull().default(false),
    subscribedAt: timestamp('subscribed_at'),
    cityId: integer('city_id').references(() => cities.id),
    active: bool('active').notNull().default(true),
    confirmedAt: timestamp('confirmed_at'),
    unsubscribedAt: timestamp('unsubscribed_at'),
    source: text('source'),
    // Double opt-in: the hash of the token in the latest confirmation mail.
    confirmTokenHash: text('confirm_token_hash'),
    confirmSentAt: timestamp('confirm_sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('newsletter_email_unique').on(t.email),
    uniqueIndex('newsletter_confirm_token_unique').on(t.confirmTokenHash),
    uniqueIndex('newsletter_unsubscribe_token_unique').on(t.unsubscribeToken),
  ],
);

export const socialMediaCache = sqliteTable(
  'social_media_cache',
  {
    id: id(),
    url: text('url').notNull(),
    platform: text('platform', { enum: SOCIAL_PLATFORMS }).notNull(),
    embedHtml: text('embed_html'),
    thumbnailUrl: text('thumbnail_url'),
    title: text('title'),
    authorName: text('author_name'),
    authorUrl: text('author_url'),
    providerName: text('provider_name'),
    width: integer('width'),
    height: integer('height'),
    fetchedAt: timestamp('fetched_at').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
    active: bool('active').notNull().default(true),
  },
  (t) => [uniqueIndex('social_media_cache_url_unique').on(t.url)],
);

// Who treats clients at a spa (issue 14, docs/decisions/0023). One table: the
// medical director is the clinician flagged as such (an MD or DO, at most one
// per spa), so a director who also treats is listed once. A licence check is
// an editor's statement that the number matched the state's public record on
// that day; changing the number clears it (src/lib/server/trust/clinicians.ts).
export const CLINICIAN_ROLES = ['MD', 'DO', 'NP', 'PA', 'RN'] as const;
export type ClinicianRole = (typeof CLINICIAN_ROLES)[number];
export const clinicians = sqliteTable(
  'clinicians',
  {
    id: id(),
    spaId: spaId(),
    name: text('name').notNull(),
    role: text('role', { enum: CLINICIAN_ROLES }).notNull(),
    /** Stored normalised: upper case, no spaces or hyphens (src/lib/licences.ts). */
    licenseNumber: text('license_number').notNull(),
    isMedicalDirector: bool('is_medical_director').notNull().default(false),
    /** The directory's treatment keys (src/content/site.ts treatments) this clinician performs. */
    treatments: text('treatments', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    licenseCheckedAt: timestamp('license_checked_at'),
    licenseCheckedBy: integer('license_checked_by').references(() => users.id, { onDelete: 'set null' }),
    // The days and hours they see clients (src/lib/opening-hours.ts), inside
    // the spa's hours; null: whenever the spa is open.
    workingHours: text('working_hours', { mode: 'json' }).$type<WeeklyHours>(),
    ...timestamps(),
  },
  (t) => [
    index('clinicians_spa_idx').on(t.spaId),
    uniqueIndex('clinicians_spa_license_unique').on(t.spaId, t.role, t.licenseNumber),
    uniqueIndex('clinicians_one_director')
      .on(t.spaId)
      .where(sql`is_medical_director = 1`),
    check('clinicians_role_check', inList('role', CLINICIAN_ROLES)),
    check('clinicians_director_role_check', sql`is_medical_director = 0 or role in ('MD', 'DO')`),
    check('clinicians_name_length_check', sql`length(name) between 1 and 120`),
  ],
);

// A clinician's time off: whole Pacific days, first and last included.
export const clinicianTimeOff = sqliteTable(
  'clinician_time_off',
  {
    id: id(),
    clinicianId: integer('clinician_id')
      .notNull()
      .references(() => clinicians.id, { onDelete: 'cascade' }),
    /** 'YYYY-MM-DD', Pacific. */
    firstDay: text('first_day').notNull(),
    lastDay: text('last_day').notNull(),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    index('clinician_time_off_idx').on(t.clinicianId, t.lastDay),
    check('clinician_time_off_order_check', sql`last_day >= first_day`),
    check('clinician_time_off_note_check', sql`note is null or length(note) <= 100`),
  ],
);

// A completed booking's invitation to review it: the e-mailed link's secret,
// hashed. One per booking; spent when the review is written.
export const reviewInvitations = sqliteTable(
  'review_invitations',
  {
    bookingId: integer('booking_id')
      .primaryKey()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
    usedAt: timestamp('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('review_invitations_token_unique').on(t.tokenHash)],
);

/** A review is public unless an editor removed it after a report (never on the owner's word). */
export const REVIEW_STATES = ['published', 'removed'] as const;
export const REVIEW_MAX_TEXT = 2000;
export const REVIEW_MAX_REPLY = 1000;

// What the client wrote, and for which visit: the same columns and limits in a
// review and in a held one, which is published as a copy, word for word.
const reviewColumns = () => ({
  bookingId: integer('booking_id')
    .notNull()
    .references(() => bookings.id, { onDelete: 'restrict' }),
  spaId: spaId(),
  rating: integer('rating').notNull(),
  body: text('body').notNull(),
  /** The treatment the client names, or null. */
  treatment: text('treatment'),
  /** The first name (or initial) shown with the review, as the client chose it. */
  authorName: text('author_name').notNull(),
  /** 'YYYY-MM' of the visit in Pacific time: what the page shows, nothing more precise. */
  visitMonth: text('visit_month').notNull(),
});
const reviewChecks = (table: string) => [
  check(`${table}_rating_check`, sql`rating between 1 and 5`),
  check(`${table}_body_length_check`, sql`length(body) between 1 and ${sql.raw(String(REVIEW_MAX_TEXT))}`),
];
/** An editor's decision on a row, with the reason, who made it and when (all null until then). */
const editorDecision = <T extends readonly [string, ...string[]]>(decisions: T) => ({
  decision: text('decision', { enum: decisions }),
  decisionReason: text('decision_reason'),
  decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
  decidedAt: timestamp('decided_at'),
});

// Verified reviews: only from a completed booking, one per booking, as written.
// The owner may reply once; nobody edits the text (the FTC's 2024 rule on fake
// and suppressed reviews, docs/decisions/0023).
export const reviews = sqliteTable(
  'reviews',
  {
    id: id(),
    ...reviewColumns(),
    state: text('state', { enum: REVIEW_STATES }).notNull().default('published'),
    removedReason: text('removed_reason'),
    reply: text('reply'),
    repliedAt: timestamp('replied_at'),
    // "Verified visit" (docs/decisions/0029): the visit was paid through the
    // site and nothing an editor must see was found, or an editor released it
    // with the badge. Shown only while the booking's payment stands (a refund
    // takes the badge away: directory and reviews read it with the booking).
    verifiedVisit: bool('verified_visit').notNull().default(false),
    // The keyed hash (client-address.ts) of the address the review was written
    // from, for the editors' signals (the owner's own network); never shown.
    writerNetwork: text('writer_network'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reviews_booking_unique').on(t.bookingId),
    index('reviews_spa_idx').on(t.spaId, t.state, t.createdAt),
    ...reviewChecks('reviews'),
    check('reviews_reply_length_check', sql`reply is null or length(reply) between 1 and ${sql.raw(String(REVIEW_MAX_REPLY))}`),
    check('reviews_state_check', inList('state', REVIEW_STATES)),
  ],
);

/** Why a review waits for an editor (src/lib/server/trust/visit-evidence.ts). */
export const HOLD_SIGNALS = ['owner-address', 'owner-account', 'owner-network', 'first-time-burst'] as const;
export type HoldSignal = (typeof HOLD_SIGNALS)[number];
export const HOLD_DECISIONS = ['published', 'removed'] as const;

// A review written through a valid link that shows a sign of being the spa's
// own (docs/decisions/0029): kept exactly as written, out of sight, until an
// editor publishes it (with or without "Verified visit") or removes it with a
// reason. Never deleted; the published review is a copy, word for word.
export const reviewHolds = sqliteTable(
  'review_holds',
  {
    id: id(),
    ...reviewColumns(),
    writerNetwork: text('writer_network'),
    /** The signals found when it was written: [{ signal, detail }]. */
    signals: text('signals', { mode: 'json' }).$type<{ signal: HoldSignal; detail: string }[]>().notNull(),
    ...editorDecision(HOLD_DECISIONS),
    /** The review it became, once published. */
    reviewId: integer('review_id').references(() => reviews.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('review_holds_booking_unique').on(t.bookingId),
    index('review_holds_open_idx').on(t.decidedAt, t.createdAt),
    index('review_holds_spa_idx').on(t.spaId, t.createdAt),
    ...reviewChecks('review_holds'),
    check('review_holds_decision_check', sql`decision is null or decision in ('published', 'removed')`),
  ],
);

// Where spa owners use the site from: the keyed hash (client-address.ts) of
// each client address a signed-in owner's request came from, with when it was
// last seen. Only for comparing with where a review was written (an editor's
// signal, docs/decisions/0029); never an address, never shown.
export const accountNetworks = sqliteTable(
  'account_networks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    network: text('network').notNull(),
    firstSeenAt: timestamp('first_seen_at').notNull(),
    lastSeenAt: timestamp('last_seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.network] }), index('account_networks_network_idx').on(t.network, t.lastSeenAt)],
);

export const REVIEW_REPORT_DECISIONS = ['kept', 'removed'] as const;

// Anyone may report a review; an editor decides, and the reason is kept.
export const reviewReports = sqliteTable(
  'review_reports',
  {
    id: id(),
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    ...editorDecision(REVIEW_REPORT_DECISIONS),
    createdAt: createdAt(),
  },
  (t) => [
    index('review_reports_open_idx').on(t.decidedAt, t.createdAt),
    check('review_reports_reason_length_check', sql`length(reason) between 1 and 500`),
    check('review_reports_decision_check', sql`decision is null or decision in ('kept', 'removed')`),
  ],
);

// One row (id = 1). content_version is bumped by triggers (the custom
// migrations 0001 and 0019) whenever something a public page shows changes (not
// for a listing nobody sees yet, nor for a write that changes no shown column),
// so a build can tell whether it is older than the data.
export const siteMeta = sqliteTable('site_meta', {
  id: integer('id').primaryKey(),
  contentVersion: integer('content_version').notNull().default(0),
});

export const AUDIT_ACTIONS = [
  'approve',
  'reject',
  'activate',
  'deactivate',
  'verify',
  'unverify',
  'feature',
  'unfeature',
  'rebuild',
  'add-admin',
  'check-licence',
  'uncheck-licence',
  'keep-review',
  'remove-review',
  'release-review',
  'refund-fee',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

// What editors did, for other editors to read (/admin/audit): who, what, to
// which thing, when. Rows are only ever added; the actor's e-mail is copied so
// the line still says who it was after the account is gone.
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: id(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    /** What it was done to: "spa:12", "site", "user:3". */
    target: text('target').notNull(),
    /** A rejection's reason, the listing's name at the time... */
    detail: text('detail'),
    at: timestamp('at')
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_target_idx').on(t.target, t.at),
    check('audit_log_action_check', inList('action', AUDIT_ACTIONS)),
  ],
);
