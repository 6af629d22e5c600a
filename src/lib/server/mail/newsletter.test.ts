import { describe, expect, it, vi } from 'vitest';
import { SIGNUPS_PER_ADDRESS, signUp } from './newsletter.ts';

const sent = vi.hoisted(() => [] as { to: string }[]);
vi.mock('./mail.ts', () => ({ sendMailInBackground: (message: { to: string }) => sent.push(message) }));

describe('newsletter sign-up limit', () => {
  it('counts victim+1@, victim+2@ ... as one inbox', () => {
    const base = `reader-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const now = new Date();
    const results = Array.from({ length: SIGNUPS_PER_ADDRESS + 2 }, (_, n) => signUp(`${base}+${n}@example.com`, { origin: 'https://site.example' }, now));
    expect(results.slice(0, SIGNUPS_PER_ADDRESS)).toEqual(Array(SIGNUPS_PER_ADDRESS).fill({ ok: true, value: 'sent' }));
    expect(results.slice(SIGNUPS_PER_ADDRESS).map((result) => !result.ok && result.reason)).toEqual(['rate_limited', 'rate_limited']);
    expect(sent.filter((message) => message.to.startsWith(`${base}+`))).toHaveLength(SIGNUPS_PER_ADDRESS);
  });
});
