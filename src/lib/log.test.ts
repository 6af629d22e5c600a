import { describe, expect, it } from 'vitest';
import { loggablePath } from './log.ts';

describe('loggablePath', () => {
  it('drops the query string, where tokens and addresses travel', () => {
    expect(loggablePath('/auth/confirm?token=abcdefghijklmnopqrstuvwxyz234567&for=owner')).toBe('/auth/confirm');
    expect(loggablePath('/newsletter?email=ana@example.com')).toBe('/newsletter');
  });

  it('replaces a token in the path', () => {
    expect(loggablePath('/bookings/manage/k3j4h5g6f7d8s9a0q1w2e3r4t5y6')).toBe('/bookings/manage/:token');
  });

  it('keeps ordinary paths', () => {
    expect(loggablePath('/spas/harborlight-aesthetics')).toBe('/spas/harborlight-aesthetics');
    expect(loggablePath('/cities/newport-beach/botox')).toBe('/cities/newport-beach/botox');
    expect(loggablePath('/offers/small-area-laser-hair-removal-six-pack-cormorant-skin-and-laser')).toBe(
      '/offers/small-area-laser-hair-removal-six-pack-cormorant-skin-and-laser',
    );
  });
});
