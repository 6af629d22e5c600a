import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '#db/migrate.ts';
import { accountNetworks, magicTokens, newsletterSubscribers, rateLimits, sessions, users } from '#db/schema.ts';
import { NEWSLETTER_CONFIRM_TTL_MS, OWNER_NETWORK_KEEP_MS, pruneExpired, RATE_LIMIT_KEEP_MS } from './housekeeping.ts';
import { OWNER_NETWORK_DAYS } from './trust/visit-evidence.ts';
import { CONFIRM_TTL_MS } from './mail/newsletter.ts';

const NOW = Date.parse('2026-11-23T09:00:00Z');
const at = (offset: number) => new Date(NOW + offset);
const HOUR = 3_600_000;

describe('pruneExpired', () => {
  it('removes expired sessions, spent or expired sign-in tokens, stale newsletter tokens and old rate-limit rows, and nothing else', () => {
    const db = migrateDatabase(':memory:');
    const user = db.insert(users).values({ email: 'keep@example.com' }).returning().get();
    db.insert(sessions)
      .values([
        { id: 'expired', secretHash: 'x', userId: user.id, expiresAt: at(-1) },
        { id: 'live', secretHash: 'x', userId: user.id, expiresAt: at(HOUR) },
      ])
      .run();
    db.insert(magicTokens)
      .values([
        { tokenHash: 'expired', email: 'a@example.com', expiresAt: at(-1) },
        { tokenHash: 'spent', email: 'a@example.com', expiresAt: at(HOUR), used: true, usedAt: at(-60_000) },
        { tokenHash: 'live', email: 'a@example.com', expiresAt: at(HOUR) },
      ])
      .run();
    db.insert(newsletterSubscribers)
      .values([
        { email: 'stale@example.com', unsubscribeToken: 'u1', confirmTokenHash: 'stale', confirmSentAt: at(-NEWSLETTER_CONFIRM_TTL_MS - 1) },
        { email: 'fresh@example.com', unsubscribeToken: 'u2', confirmTokenHash: 'fresh', confirmSentAt: at(-HOUR) },
      ])
      .run();
    db.insert(rateLimits)
      .values([
        { key: 'old', windowStart: at(-RATE_LIMIT_KEEP_MS - 1), count: 3 },
        { key: 'current', windowStart: at(-HOUR), count: 3 },
      ])
      .run();
    db.insert(accountNetworks)
      .values([
        { userId: user.id, network: 'old', firstSeenAt: at(-OWNER_NETWORK_KEEP_MS - HOUR), lastSeenAt: at(-OWNER_NETWORK_KEEP_MS - 1) },
        { userId: user.id, network: 'recent', firstSeenAt: at(-OWNER_NETWORK_KEEP_MS - HOUR), lastSeenAt: at(-HOUR) },
      ])
      .run();

    expect(pruneExpired(db, NOW)).toEqual({ sessions: 1, magicTokens: 2, newsletterTokens: 1, rateLimits: 1, accountNetworks: 1 });
    expect(db.select({ id: sessions.id }).from(sessions).all()).toEqual([{ id: 'live' }]);
    expect(db.select({ tokenHash: magicTokens.tokenHash }).from(magicTokens).all()).toEqual([{ tokenHash: 'live' }]);
    expect(db.select({ email: newsletterSubscribers.email, hash: newsletterSubscribers.confirmTokenHash }).from(newsletterSubscribers).all()).toEqual([
      { email: 'stale@example.com', hash: null },
      { email: 'fresh@example.com', hash: 'fresh' },
    ]);
    expect(db.select({ key: rateLimits.key }).from(rateLimits).all()).toEqual([{ key: 'current' }]);
    expect(db.select({ network: accountNetworks.network }).from(accountNetworks).all()).toEqual([{ network: 'recent' }]);
    expect(db.select().from(users).all()).toHaveLength(1);

    // Twice is the same as once.
    expect(pruneExpired(db, NOW)).toEqual({ sessions: 0, magicTokens: 0, newsletterTokens: 0, rateLimits: 0, accountNetworks: 0 });
    db.$client.close();
  });

  it('keeps the newsletter token life in step with newsletter.ts, and an owner network’s with visit-evidence.ts', () => {
    expect(NEWSLETTER_CONFIRM_TTL_MS).toBe(CONFIRM_TTL_MS);
    expect(OWNER_NETWORK_KEEP_MS).toBe(OWNER_NETWORK_DAYS * 86_400_000);
  });
});
