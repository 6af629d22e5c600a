import { like } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { rateLimits } from '#db/schema.ts';
import { db } from '../db.ts';
import { magicLinkEndpoint } from './magic-link-endpoint.ts';
import { LIMIT_PER_EMAIL } from './magic-links.ts';

const sent = vi.hoisted(() => [] as { to: string }[]);
vi.mock('../mail/mail.ts', () => ({ sendMail: async (message: { to: string }) => void sent.push(message) }));

const post = (email: string, clientAddress: string) =>
  magicLinkEndpoint('client')({
    request: new Request('http://localhost/api/auth/request', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    }),
    clientAddress,
  } as never) as Promise<Response>;

const octet = () => Math.floor(Math.random() * 256);

describe('sign-in link requests', () => {
  it('count victim+1@, victim+2@ ... as one inbox', async () => {
    const base = `signin-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const statuses: number[] = [];
    // A fresh client address each time: only the inbox limit can refuse.
    for (let n = 0; n <= LIMIT_PER_EMAIL; n++) statuses.push((await post(`${base}+${n}@example.com`, `10.${octet()}.${octet()}.${octet()}`)).status);
    expect(statuses).toEqual([...Array<number>(LIMIT_PER_EMAIL).fill(200), 429]);
    expect(sent.filter((message) => message.to.startsWith(base))).toHaveLength(LIMIT_PER_EMAIL);
  });

  it('never put the client address, or its plain hash, into a limit key', async () => {
    const address = `192.0.2.${octet()}`;
    expect((await post(`other-${Date.now()}@example.com`, address)).status).toBe(200);
    const keys = db.select({ key: rateLimits.key }).from(rateLimits).where(like(rateLimits.key, 'magic:client:%')).all();
    const { createHash } = await import('node:crypto');
    const plain = createHash('sha256').update(address).digest('hex');
    expect(keys.length).toBeGreaterThan(0);
    for (const { key } of keys) {
      expect(key).not.toContain(address);
      expect(key).not.toContain(plain);
    }
  });
});
