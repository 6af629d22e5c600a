// Environment for the Node scripts (start, serve, seed, rebuild...). The Astro
// app validates the same variables through astro:env (astro.config.mjs); the
// defaults live here once and astro.config.mjs imports them. A bad value stops
// the script at once with the variable's name, not later with a puzzle.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const envDefaults = {
  HOST: '127.0.0.1',
  PORT: '4321',
  SITE_URL: 'http://localhost:4321',
  DATABASE_PATH: 'data/site.db',
  SITE_DIR: 'data/site',
  MAIL_OUTBOX: 'data/outbox',
  BACKUP_DIR: 'data/backups',
  MAIL_FROM: 'Orange County Med Spa Directory <hello@ocmedspadirectory.com>',
  TRUST_PROXY: '0',
  REQUEST_LOG: 'on',
  BACKGROUND_JOBS: 'on',
  MAX_CONNECTIONS: '1000',
} as const;

type Name = keyof typeof envDefaults;

const validators: Partial<Record<Name, (value: string) => string | null>> = {
  PORT: (v) => (/^\d+$/.test(v) && Number(v) > 0 && Number(v) < 65536 ? null : 'must be a port number (1-65535)'),
  BACKGROUND_JOBS: (v) => (v === 'on' || v === 'off' ? null : 'must be on or off'),
  REQUEST_LOG: (v) => (v === 'on' || v === 'off' ? null : 'must be on or off'),
  MAX_CONNECTIONS: (v) => (/^\d+$/.test(v) && Number(v) > 0 ? null : 'must be a positive whole number'),
  TRUST_PROXY: (v) => (/^(?:[0-9]|true|false)$/.test(v) ? null : 'must be the number of proxies in front of the server (0-9)'),
  SITE_URL: (v) => (URL.canParse(v) && /^https?:/.test(v) ? null : 'must be an http(s) URL'),
};

let loaded = false;

/** Loads .env (when present) once; variables already set in the environment win. */
export function loadEnv(): void {
  if (loaded) return;
  loaded = true;
  if (existsSync('.env')) process.loadEnvFile('.env');
}

export function env(name: Name): string {
  loadEnv();
  const value = process.env[name] || envDefaults[name];
  const problem = validators[name]?.(value);
  if (problem) throw new Error(`${name}=${JSON.stringify(value)} ${problem}`);
  return value;
}

export function envPath(name: 'DATABASE_PATH' | 'SITE_DIR' | 'MAIL_OUTBOX' | 'BACKUP_DIR'): string {
  return resolve(env(name));
}
