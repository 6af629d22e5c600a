// What `astro:env/server` is in tests: unit tests (vitest.config.ts aliases it
// here) and the end-to-end tests' own processes (./astro-env-hook.ts).
// Astro's own module, outside a build, carries the environment of vitest's main
// process as it was when the module was first transformed, so a setting a test
// file names for itself (its own DATABASE_PATH, tests/unit-database.ts) would
// never reach it. This one reads the process's environment when it is
// imported, with the settings table's defaults, as the built server's does
// at run time. astro-env-server.test.ts checks it exports every server setting.
import { envDefaults, type SettingName } from '#server/env.ts';

/** The value Astro's module gives: the environment's, else the table's default; an empty optional setting is undefined. */
function setting(name: SettingName): string | undefined {
  const value = process.env[name] || envDefaults[name];
  return value === '' ? undefined : value;
}

export const getSecret = (name: string) => (name in envDefaults ? setting(name as SettingName) : process.env[name]);

export const TRUST_PROXY = setting('TRUST_PROXY')!;
export const DATABASE_PATH = setting('DATABASE_PATH')!;
export const UPLOAD_DIR = setting('UPLOAD_DIR')!;
export const SITE_DIR = setting('SITE_DIR')!;
export const SMTP_URL = setting('SMTP_URL');
export const MAIL_OUTBOX = setting('MAIL_OUTBOX')!;
export const MAIL_FROM = setting('MAIL_FROM')!;
export const ANALYTICS_SALT = setting('ANALYTICS_SALT')!;
export const OEMBED_ENDPOINTS = setting('OEMBED_ENDPOINTS');
export const OEMBED_ALLOW_LOOPBACK = setting('OEMBED_ALLOW_LOOPBACK')!;
export const INSTAGRAM_OEMBED_TOKEN = setting('INSTAGRAM_OEMBED_TOKEN');
export const GOOGLE_CLIENT_ID = setting('GOOGLE_CLIENT_ID');
export const GOOGLE_CLIENT_SECRET = setting('GOOGLE_CLIENT_SECRET');
export const GOOGLE_AUTHORIZATION_URL = setting('GOOGLE_AUTHORIZATION_URL')!;
export const GOOGLE_TOKEN_URL = setting('GOOGLE_TOKEN_URL')!;
export const GOOGLE_USERINFO_URL = setting('GOOGLE_USERINFO_URL')!;
export const STRIPE_SECRET_KEY = setting('STRIPE_SECRET_KEY');
export const STRIPE_WEBHOOK_SECRET = setting('STRIPE_WEBHOOK_SECRET');
export const STRIPE_API_HOST = setting('STRIPE_API_HOST');
export const STRIPE_API_PORT = setting('STRIPE_API_PORT');
export const STRIPE_API_PROTOCOL = setting('STRIPE_API_PROTOCOL');
