// Environment for the Node scripts (start, serve, seed, rebuild...). The Astro
// app validates the same variables through astro:env (astro.config.mjs); the
// defaults live here once and astro.config.mjs imports them.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const envDefaults = {
  HOST: '127.0.0.1',
  PORT: '4321',
  SITE_URL: 'http://localhost:4321',
  DATABASE_PATH: 'data/site.db',
  SITE_DIR: 'data/site',
  MAIL_OUTBOX: 'data/outbox',
  MAIL_FROM: 'Orange County Med Spa Directory <hello@ocmedspadirectory.com>',
} as const;

let loaded = false;

/** Loads .env (when present) once; variables already set in the environment win. */
export function loadEnv(): void {
  if (loaded) return;
  loaded = true;
  if (existsSync('.env')) process.loadEnvFile('.env');
}

export function env(name: keyof typeof envDefaults): string {
  loadEnv();
  return process.env[name] || envDefaults[name];
}

export function envPath(name: 'DATABASE_PATH' | 'SITE_DIR' | 'MAIL_OUTBOX'): string {
  return resolve(env(name));
}
