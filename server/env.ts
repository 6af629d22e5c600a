// Every setting, defined once: its default, its check, whether the Astro app
// reads it (astro:env, and how) and its lines in .env.example. astro.config.mjs
// builds its env schema from this table, the server and scripts read values
// through env(), and .env.example is written from it (`npm run env:example`;
// a test fails when the file and the table differ). A bad value stops the
// process at once with the variable's name, not later with a puzzle.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { envField } from 'astro/config';

// Only the type: the server never loads Astro's config module at run time.
type EnvFieldApi = typeof envField;

type Check = (value: string) => string | null;

interface Setting {
  /** Empty string: unset by default (the feature is off). */
  default: string;
  check?: Check;
  /** How the Astro app reads it; absent when only the server and scripts do. */
  astro?: { context: 'server'; access: 'secret'; url?: boolean } | { context: 'client'; access: 'public' };
  /** The comment above it in .env.example; absent to share the previous variable's. */
  doc?: string;
  /** Read by the build and baked into what it writes: a build made with another value is stale (server/site-builds.ts). */
  bakedIn?: true;
}

const onOff: Check = (v) => (v === 'on' || v === 'off' ? null : 'must be on or off');
const httpUrl: Check = (v) => (URL.canParse(v) && /^https?:/.test(v) ? null : 'must be an http(s) URL');
const secret = { context: 'server', access: 'secret' } as const;

export const settings = {
  HOST: { default: '127.0.0.1', doc: 'Where the server listens (npm start, npm run serve).' },
  PORT: { default: '4321', check: (v) => (/^\d+$/.test(v) && Number(v) > 0 && Number(v) < 65536 ? null : 'must be a port number (1-65535)') },
  SITE_URL: {
    default: '',
    check: httpUrl,
    bakedIn: true,
    doc: 'The public origin: links in mail, canonical URLs, OpenGraph tags, sitemap.xml\nand robots.txt are built from it. Empty: where the server listens\n(http://localhost:PORT), said at start-up. Set it behind a proxy.',
  },
  READYZ_TOKEN: {
    default: '',
    doc: 'GET /readyz shows its detail (build, mail queue, memory) to requests from this\nmachine, and to those with `Authorization: Bearer <READYZ_TOKEN>`; everyone\nelse sees only whether the site is ready. Empty: no token opens it.',
  },
  REQUEST_LOG: {
    default: 'on',
    check: onOff,
    doc: 'One JSON line per request on stdout (time, request id, method, path without\nquery or tokens, status, duration): on or off.',
  },
  BACKGROUND_JOBS: {
    default: 'on',
    check: onOff,
    doc: 'Several server processes may share one database; exactly one of them should\nrun the background jobs (mail-queue recovery at start, nightly rebuild and\nbackup): on for that one, off for the others.',
  },
  PUBLISH_ON_CHANGE: {
    default: 'on',
    check: onOff,
    doc: "With BACKGROUND_JOBS=on: rebuild the pre-rendered pages a few seconds after a\nlisting changes, and meanwhile render spa pages from the data (off: only\n`npm run rebuild`, the nightly rebuild and the editors' Rebuild now).",
  },
  MAX_CONNECTIONS: {
    default: '1000',
    check: (v) => (/^\d+$/.test(v) && Number(v) > 0 ? null : 'must be a positive whole number'),
    doc: "Open connections the server accepts at once; more wait in the kernel's queue.",
  },
  TRUST_PROXY: {
    default: '0',
    check: (v) => (/^(?:[0-9]|true|false)$/.test(v) ? null : 'must be the number of proxies in front of the server (0-9)'),
    astro: secret,
    doc: "Reverse proxies in front of the server (nginx, a load balancer): 0 means none\nand is the default. Set it to how many there are (usually 1) only when every\nrequest passes through them: the client's address is then taken from the\nentry the outermost proxy appended to X-Forwarded-For (rate limits, analytics),\nand browser posts must carry SITE_URL's origin (TLS ends at the proxy).",
  },
  DATABASE_PATH: { default: 'data/site.db', astro: secret, doc: 'The SQLite database file (created and migrated on start).' },
  BACKUP_DIR: {
    default: 'data/backups',
    doc: 'Database backups (npm run db:backup, and the server every night): the newest\nof each of the last 7 days and 4 weeks are kept. Copy them off the machine.',
  },
  UPLOAD_DIR: {
    default: 'data/uploads',
    astro: secret,
    doc: 'Uploaded listing photos and social-card thumbnails (AVIF and WebP variants,\nnamed by content hash). Part of every backup: BACKUP_DIR/uploads mirrors it.',
  },
  SITE_DIR: { default: 'data/site', astro: secret, doc: 'Where published builds live (builds/<id>/ and the `current` link).' },
  SMTP_URL: {
    default: '',
    astro: secret,
    doc: 'Mail: with SMTP_URL set (e.g. smtp://user:pass@smtp.example.com:587) mail is\nsent; without it, each message is written as an .eml file to MAIL_OUTBOX.',
  },
  MAIL_OUTBOX: { default: 'data/outbox', astro: secret },
  MAIL_FROM: { default: 'Orange County Med Spa Directory <hello@ocmedspadirectory.com>', astro: secret },
  REBUILD_LOG_LEVEL: {
    default: 'info',
    check: (v) => (v === 'info' || v === 'warn' ? null : 'must be info or warn'),
    doc: 'How much Astro prints while `npm run rebuild` renders pages: info (each page,\nthe default) or warn (only problems; the tests use it).',
  },
  ANALYTICS_SALT: {
    default: 'dev-only-analytics-salt',
    astro: secret,
    doc: 'The secret key for client addresses: they are stored and counted (analytics\nevents, rate limits) only as HMAC-SHA256(key, address). Set a long random value\nin production (e.g. `openssl rand -hex 32`); the default is public, so hashes\nmade with it can be reversed by trying every IPv4 address.',
  },
  PUBLIC_PAGE_ANALYTICS_ID: {
    default: '',
    bakedIn: true,
    astro: { context: 'client', access: 'public' },
    doc: 'A page-analytics tag id (Google tag, e.g. G-XXXXXXX). Empty: no tag is loaded\nand no page-analytics events are sent. Read at build time.',
  },
  OEMBED_ENDPOINTS: {
    default: '',
    astro: secret,
    doc: "Social feed cards (Premium and Elite): the server asks the platform's oEmbed\nendpoint for a post's title, author and thumbnail, and stores the thumbnail\nin UPLOAD_DIR. Empty uses the platforms' own endpoints; tests name a local\nstand-in, e.g. youtube=http://127.0.0.1:9999/oembed,tiktok=http://127.0.0.1:9999/oembed",
  },
  OEMBED_ALLOW_LOOPBACK: { default: 'off', check: onOff, astro: secret, doc: 'on only for tests: lets the fetcher reach 127.0.0.1. Never in production.' },
  INSTAGRAM_OEMBED_TOKEN: {
    default: '',
    astro: secret,
    doc: "Instagram's oEmbed needs a Meta app access token; empty shows Instagram feeds as a plain link.",
  },
  GOOGLE_CLIENT_ID: {
    default: '',
    astro: secret,
    doc: '"Continue with Google" (OAuth client of type "Web application" in Google\nCloud; authorized redirect URI: <site origin>/api/auth/google/callback).\nBoth empty: no Google button, and /api/auth/google answers 404.',
  },
  GOOGLE_CLIENT_SECRET: { default: '', astro: secret },
  GOOGLE_AUTHORIZATION_URL: {
    default: 'https://accounts.google.com/o/oauth2/v2/auth',
    check: httpUrl,
    astro: { ...secret, url: true },
    doc: "Google's endpoints. Change them only to test against another OAuth server.",
  },
  GOOGLE_TOKEN_URL: { default: 'https://oauth2.googleapis.com/token', check: httpUrl, astro: { ...secret, url: true } },
  GOOGLE_USERINFO_URL: { default: 'https://openidconnect.googleapis.com/v1/userinfo', check: httpUrl, astro: { ...secret, url: true } },
  STRIPE_SECRET_KEY: {
    default: '',
    astro: secret,
    doc: 'Stripe: card payments at /checkout and Premium/Elite subscriptions. All empty\n(the default): those pages say "payments are not configured" and everything\nelse works. To try it for real with a Stripe test account and the Stripe CLI:\n  1. STRIPE_SECRET_KEY=sk_test_... and PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_test_...\n     (Dashboard > Developers > API keys, test mode)\n  2. npm run stripe:setup     (creates the four plan prices by lookup key, once)\n  3. stripe listen --forward-to localhost:4321/api/stripe/webhook\n     and put the whsec_... it prints into STRIPE_WEBHOOK_SECRET (events used:\n     checkout.session.*, customer.subscription.*, invoice.payment_failed,\n     payment_intent.*, charge.refunded)\n  4. npm start, pay with card 4242 4242 4242 4242',
  },
  PUBLIC_STRIPE_PUBLISHABLE_KEY: { default: '', astro: { context: 'client', access: 'public' }, bakedIn: true },
  STRIPE_WEBHOOK_SECRET: { default: '', astro: secret },
  STRIPE_API_HOST: { default: '', astro: secret, bakedIn: true, doc: 'Only for tests: send Stripe API calls to a local stand-in instead of api.stripe.com.' },
  STRIPE_API_PORT: { default: '', astro: secret, bakedIn: true },
  STRIPE_API_PROTOCOL: { default: '', astro: secret, bakedIn: true },
} satisfies Record<string, Setting>;

export type SettingName = keyof typeof settings;

export const envDefaults = Object.fromEntries(Object.entries(settings).map(([name, s]) => [name, s.default])) as Record<SettingName, string>;

let loaded = false;

/**
 * The public origin when SITE_URL is not set: where the server listens, with
 * "localhost" for an address of this machine (issue 26, item 1).
 */
export function listeningUrl(host: string, port: string): string {
  const local = ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', ''].includes(host);
  const name = local ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Set when SITE_URL was not given and loadEnv() derived it (server/serve.ts says so at start). */
export let derivedSiteUrl: string | null = null;

/**
 * Loads .env (when present) once; variables already set in the environment
 * win. An empty SITE_URL becomes where the server listens, in process.env, so
 * the build, the app and every process started from here use the same origin.
 */
export function loadEnv(): void {
  if (loaded) return;
  loaded = true;
  if (existsSync('.env')) process.loadEnvFile('.env');
  if (!process.env.SITE_URL) {
    derivedSiteUrl = listeningUrl(process.env.HOST || settings.HOST.default, process.env.PORT || settings.PORT.default);
    process.env.SITE_URL = derivedSiteUrl;
  }
}

/** SITE_URL's origin (scheme, host and port). */
export const siteUrlOrigin = (siteUrl: string) => new URL(siteUrl).origin;

/** The settings the build bakes in, and their values now: a build made with others is stale. */
export function bakedInValues(): Record<string, string> {
  return Object.fromEntries((Object.entries(settings) as [SettingName, Setting][]).filter(([, setting]) => setting.bakedIn).map(([name]) => [name, env(name)]));
}

export function env(name: SettingName): string {
  loadEnv();
  const setting: Setting = settings[name];
  const value = process.env[name] || setting.default;
  const problem = value === '' ? null : setting.check?.(value);
  if (problem) throw new Error(`${name}=${JSON.stringify(value)} ${problem}`);
  return value;
}

export function envPath(name: 'DATABASE_PATH' | 'SITE_DIR' | 'MAIL_OUTBOX' | 'BACKUP_DIR' | 'UPLOAD_DIR'): string {
  return resolve(env(name));
}

/** Astro's env schema (astro.config.mjs), from the table: `envField` is passed in so this file need not import Astro. */
export function astroEnvSchema(envField: EnvFieldApi): Record<string, ReturnType<EnvFieldApi['string']>> {
  const schema: Record<string, ReturnType<EnvFieldApi['string']>> = {};
  for (const [name, setting] of Object.entries(settings) as [string, Setting][]) {
    if (!setting.astro) continue;
    const options = { ...setting.astro, ...(setting.default === '' ? { optional: true } : { default: setting.default }) };
    schema[name] = envField.string(options as Parameters<EnvFieldApi['string']>[0]);
  }
  return schema;
}

/** The text of .env.example. */
export function envExample(): string {
  const lines = [
    '# Copy to .env and change what you need. Every default here runs on a fresh',
    '# machine with no outside accounts. Variables already set in the environment win.',
    '# Written from server/env.ts by `npm run env:example`; edit the table there.',
  ];
  for (const [name, setting] of Object.entries(settings) as [string, Setting][]) {
    if (setting.doc) lines.push('', ...setting.doc.split('\n').map((line) => `# ${line}`.trimEnd()));
    const value = /[\s<>"]/.test(setting.default) ? JSON.stringify(setting.default) : setting.default;
    lines.push(`${name}=${value}`);
  }
  return `${lines.join('\n')}\n`;
}
