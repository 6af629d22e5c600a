import { describe, expect, it } from 'vitest';
import { leaks } from './scan-headers.ts';

describe('leaks', () => {
  it('finds a stack trace, Node internals, an error class or a path on disk', () => {
    expect(leaks('Error: boom\n    at render (file:///srv/site/server/entry.mjs:12:7)', '/srv/site')).toBe('stack frame');
    expect(leaks('{"error":"node:internal/process/task_queues"}', '/srv/site')).toBe('node internals');
    expect(leaks('TypeError: Cannot read properties of undefined', '/srv/site')).toBe('error class');
    expect(leaks('could not open /srv/site/data/site.db', '/srv/site')).toBe('path on disk');
  });

  it('lets a plain error answer through', () => {
    expect(leaks('{"error":{"code":"invalid","message":"Please enter a valid email."}}', '/srv/site')).toBeNull();
    expect(leaks('<!doctype html><title>Page not found</title><p>Try the search.</p>', '/srv/site')).toBeNull();
  });
});
