import { describe, expect, it } from 'vitest';
import { catalogNotices, UNLISTED_CHANGE } from './catalog-page.ts';

describe('catalogNotices', () => {
  const kind = { one: 'service', many: 'services', article: 'a' } as const;

  it('promises a listed spa’s change on the public pages within a minute', () => {
    const notices = catalogNotices(kind, 'The public pages show', true, {});
    expect(notices.added).toBe('Service added. The public pages show it within a minute.');
    expect(notices.saved).toBe('Service saved. The public pages show the change within a minute.');
  });

  it('promises nothing public for a listing that is not listed (issue 26)', () => {
    const notices = catalogNotices(kind, 'The public pages show', false, { ended: 'Offer ended.' });
    expect(notices.added).toBe(`Service added. ${UNLISTED_CHANGE}`);
    expect(notices.saved).toBe(`Service saved. ${UNLISTED_CHANGE}`);
    expect(Object.values(notices).join(' ')).not.toContain('within a minute');
    expect(notices.ended).toBe('Offer ended.');
  });
});
