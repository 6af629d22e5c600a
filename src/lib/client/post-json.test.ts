import { afterEach, describe, expect, it, vi } from 'vitest';
import { postJson } from './post-json.ts';

afterEach(() => vi.unstubAllGlobals());

describe('postJson', () => {
  it('sends the body as JSON with the session cookie', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    const response = await postJson('/api/bookings', { name: 'Ana', preferredDate: new Date('2026-12-01T00:00:00Z') });
    expect(response.status).toBe(201);
    expect(fetch).toHaveBeenCalledWith('/api/bookings', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"Ana","preferredDate":"2026-12-01T00:00:00.000Z"}',
    });
  });
});
