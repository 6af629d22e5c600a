import { envField } from 'astro/config';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { astroEnvSchema, env, envExample, listeningUrl } from './env.ts';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe('script environment', () => {
  it('falls back to the documented defaults', () => {
    delete process.env.PORT;
    delete process.env.HOST;
    expect(env('PORT')).toBe('4321');
    expect(env('HOST')).toBe('127.0.0.1');
  });

  it('names the variable when a value is wrong', () => {
    process.env.PORT = 'eighty';
    expect(() => env('PORT')).toThrow(/PORT="eighty" must be a port number/);
    process.env.SITE_URL = 'localhost:4321';
    expect(() => env('SITE_URL')).toThrow(/SITE_URL=.*must be an http\(s\) URL/);
  });
});

describe('.env.example', () => {
  it('is written from the settings table: every variable, its default and its comment', () => {
    // After changing server/env.ts: npm run env:example
    expect(readFileSync('.env.example', 'utf8')).toBe(envExample());
  });

  it('gives Astro every setting the app reads, with the same default', () => {
    const schema = astroEnvSchema(envField);
    expect(schema.DATABASE_PATH).toEqual({ type: 'string', context: 'server', access: 'secret', default: 'data/site.db' });
    expect(schema.PUBLIC_STRIPE_PUBLISHABLE_KEY).toEqual({ type: 'string', context: 'client', access: 'public', optional: true });
    expect(schema.PORT).toBeUndefined();
  });
});

describe('SITE_URL when it is not set', () => {
  it('is where the server listens, with localhost for this machine', () => {
    expect(listeningUrl('127.0.0.1', '4600')).toBe('http://localhost:4600');
    expect(listeningUrl('0.0.0.0', '80')).toBe('http://localhost:80');
    expect(listeningUrl('::1', '4321')).toBe('http://localhost:4321');
    expect(listeningUrl('192.0.2.10', '8080')).toBe('http://192.0.2.10:8080');
    expect(listeningUrl('2001:db8::1', '8080')).toBe('http://[2001:db8::1]:8080');
  });
});
