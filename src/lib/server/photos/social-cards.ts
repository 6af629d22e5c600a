// Social feed cards (Premium and Elite). When a listing's social feed URL is
// saved, the server asks the platform's oEmbed endpoint for the post's title,
// author and thumbnail, stores them in social_media_cache with an expiry, and
// keeps the thumbnail itself under UPLOAD_DIR through the image pipeline. The
// spa page builds its card from that cache only: no third-party script, frame
// or image host on our pages. Stale, failed or offline: the page shows the
// plain link (rulings: "without outside services").
import { INSTAGRAM_OEMBED_TOKEN, OEMBED_ALLOW_LOOPBACK, OEMBED_ENDPOINTS } from 'astro:env/server';
import { and, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import { SOCIAL_PLATFORMS, socialMediaCache, spas } from '#db/schema.ts';
import { logger } from '#lib/log.ts';
import { forbidden, invalid, ok, unavailable, upstreamFailed, type Result } from '#lib/result.ts';
import { allowedSocialFeed } from '#lib/tiers.ts';
import { db } from '../db.ts';
import { ImageRejected, processImage } from './image-pipeline.ts';
import { safeFetch } from '../safe-fetch.ts';
import { removePictureIfUnused, storePicture } from './uploads.ts';

const log = logger('social-cards');

export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

const DEFAULT_ENDPOINTS: Record<SocialPlatform, string> = {
  youtube: 'https://www.youtube.com/oembed',
  tiktok: 'https://www.tiktok.com/oembed',
  instagram: 'https://graph.facebook.com/v22.0/instagram_oembed',
};

const DAY = 86_400_000;
/** How long a card is shown without asking again, unless the platform says otherwise (clamped). */
export const CARD_TTL_MS = 7 * DAY;
const MIN_TTL_MS = DAY;
const MAX_TTL_MS = 30 * DAY;
const OEMBED_MAX_BYTES = 256 * 1024;
const THUMBNAIL_MAX_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 5_000;

/** "youtube=https://...,tiktok=https://..." over the platforms' own endpoints. */
export function parseEndpoints(setting: string | undefined): Record<SocialPlatform, string> {
  const endpoints = { ...DEFAULT_ENDPOINTS };
  for (const pair of (setting ?? '').split(',')) {
    const [name, url] = pair.split('=').map((part) => part?.trim()) as [string, string | undefined];
    if (url && (SOCIAL_PLATFORMS as readonly string[]).includes(name) && /^https?:\/\//.test(url)) endpoints[name as SocialPlatform] = url;
  }
  return endpoints;
}

/** The platform a feed URL belongs to: the saved one when given, else by host. */
export function platformOf(url: string, saved?: string | null): SocialPlatform | null {
  if (saved && (SOCIAL_PLATFORMS as readonly string[]).includes(saved)) return saved as SocialPlatform;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (/(^|\.)instagram\.com$/.test(host)) return 'instagram';
  if (/(^|\.)tiktok\.com$/.test(host)) return 'tiktok';
  if (/(^|\.)youtube\.com$/.test(host) || host === 'youtu.be') return 'youtube';
  return null;
}

const httpOrNull = z
  .string()
  .max(2048)
  .nullish()
  .transform((value) => (value && /^https?:\/\//i.test(value) && URL.canParse(value) ? value : null));
const text = (max: number) =>
  z
    .string()
    .nullish()
    .transform((value) => (value ? value.replace(/\s+/g, ' ').trim().slice(0, max) || null : null));

const oembedSchema = z.object({
  title: text(300),
  author_name: text(120),
  author_url: httpOrNull,
  provider_name: text(60),
  thumbnail_url: httpOrNull,
  cache_age: z.union([z.number(), z.string()]).nullish(),
});

/** The card's title and whether it has a picture; refused as forbidden (no social feed on this plan), invalid (not a platform we make cards for), unavailable (Instagram without a token) or upstream_failed (the platform did not answer with a card). */
export type RefreshResult = Result<{ title: string | null; thumbnail: boolean }, 'forbidden' | 'invalid' | 'unavailable' | 'upstream_failed'>;

const NO_CARD = 'The platform did not answer with a card just now. Your listing shows a plain link to the feed; try again later.';
const noCard = () => upstreamFailed(NO_CARD);

/** Where to ask and whom to reach: the environment's, unless a test passes its own stand-in. */
export interface SocialCardSettings {
  endpoints?: string;
  allowLoopback?: boolean;
  instagramToken?: string;
}

function ttlFrom(cacheAge: string | number | null | undefined): number {
  const seconds = Number(cacheAge);
  if (!Number.isFinite(seconds) || seconds <= 0) return CARD_TTL_MS;
  return Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, seconds * 1000));
}

async function fetchThumbnail(url: string | null, allowLoopback: boolean): Promise<{ url: string; width: number; height: number } | null> {
  if (!url) return null;
  try {
    const response = await safeFetch(url, { allowLoopback, maxBytes: THUMBNAIL_MAX_BYTES, timeoutMs: TIMEOUT_MS, accept: 'image/*' });
    if (response.status !== 200) return null;
    const image = await processImage(response.body, { maxWidth: 800 });
    return { url: storePicture('social', image), width: image.width, height: image.height };
  } catch (error) {
    // A thumbnail we cannot have leaves a card without a picture, not no card.
    if (!(error instanceof ImageRejected)) log.warn(`thumbnail ${new URL(url).host} not fetched: ${(error as Error).message}`);
    return null;
  }
}

/**
 * Fetches the oEmbed card of the spa's social feed into social_media_cache.
 * Safe to call from a request or a background job: it never throws, changes
 * nothing when the platform does not answer (an older card stays until it
 * expires), and does nothing for a tier without social feeds.
 */
export async function refreshSocialCard(spaId: number, now = new Date(), settings: SocialCardSettings = {}): Promise<RefreshResult> {
  const endpoints = settings.endpoints ?? OEMBED_ENDPOINTS ?? '';
  const allowLoopback = settings.allowLoopback ?? OEMBED_ALLOW_LOOPBACK === 'on';
  const instagramToken = settings.instagramToken ?? INSTAGRAM_OEMBED_TOKEN;
  try {
    const spa = db
      .select({ tier: spas.tier, socialFeedUrl: spas.socialFeedUrl, socialPlatform: spas.socialPlatform })
      .from(spas)
      .where(eq(spas.id, spaId))
      .get();
    const feedUrl = spa ? allowedSocialFeed(spa) : null;
    if (!spa || !feedUrl) return forbidden('Social feed cards are part of Premium and Elite listings with a social feed URL.');
    const platform = platformOf(feedUrl, spa.socialPlatform);
    if (!platform) return invalid({}, 'Cards are made for Instagram, TikTok and YouTube links.');
    if (platform === 'instagram' && !instagramToken && !endpoints.includes('instagram=')) return unavailable(NO_CARD);

    const endpoint = new URL(parseEndpoints(endpoints)[platform]);
    endpoint.searchParams.set('url', feedUrl);
    endpoint.searchParams.set('format', 'json');
    if (platform === 'instagram' && instagramToken) endpoint.searchParams.set('access_token', instagramToken);

    let data: z.infer<typeof oembedSchema>;
    try {
      const response = await safeFetch(endpoint.href, { allowLoopback, maxBytes: OEMBED_MAX_BYTES, timeoutMs: TIMEOUT_MS, accept: 'application/json' });
      if (response.status !== 200) return noCard();
      const parsed = oembedSchema.safeParse(JSON.parse(response.body.toString('utf8')));
      if (!parsed.success) return noCard();
      data = parsed.data;
    } catch (error) {
      log.warn(`oEmbed for spa ${spaId} (${platform}) not fetched: ${(error as Error).message}`);
      return noCard();
    }

    const thumbnail = await fetchThumbnail(data.thumbnail_url, allowLoopback);
    const fetchedAt = now;
    const expiresAt = new Date(now.getTime() + ttlFrom(data.cache_age));
    const values = {
      platform,
      // Never a third party's markup on our pages: the card is built from the fields below.
      embedHtml: null,
      thumbnailUrl: thumbnail?.url ?? null,
      title: data.title,
      authorName: data.author_name,
      authorUrl: data.author_url,
      providerName: data.provider_name,
      width: thumbnail?.width ?? null,
      height: thumbnail?.height ?? null,
      fetchedAt,
      expiresAt,
      active: true,
    };
    const previous = db.select({ thumbnailUrl: socialMediaCache.thumbnailUrl }).from(socialMediaCache).where(eq(socialMediaCache.url, feedUrl)).get();
    db.insert(socialMediaCache)
      .values({ url: feedUrl, ...values })
      .onConflictDoUpdate({ target: socialMediaCache.url, set: values })
      .run();
    if (previous?.thumbnailUrl && previous.thumbnailUrl !== values.thumbnailUrl) removePictureIfUnused(previous.thumbnailUrl);
    return ok({ title: data.title, thumbnail: Boolean(thumbnail) });
  } catch (error) {
    log.error(`social card for spa ${spaId} failed`, error);
    return noCard();
  }
}

export type SocialCardData = typeof socialMediaCache.$inferSelect;

/** The cached card for a feed URL while it is fresh; null means "show the plain link". */
export function freshSocialCard(feedUrl: string | null, now = new Date()): SocialCardData | null {
  if (!feedUrl) return null;
  return (
    db
      .select()
      .from(socialMediaCache)
      .where(and(eq(socialMediaCache.url, feedUrl), eq(socialMediaCache.active, true), gt(socialMediaCache.expiresAt, now)))
      .get() ?? null
  );
}
