import { afterEach, describe, expect, it } from 'vitest';
import { env } from './env.ts';

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
