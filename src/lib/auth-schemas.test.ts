import { describe, expect, it } from 'vitest';
import { magicLinkRequestSchema } from './auth-schemas.ts';

describe('magic-link request', () => {
  it('normalises a valid address', () => {
    expect(magicLinkRequestSchema.parse({ email: '  Ana@Example.COM ' })).toEqual({ email: 'ana@example.com' });
  });

  it('refuses what is not an address, with the spec message', () => {
    for (const email of ['', 'ana', 'ana@', '@example.com', `${'a'.repeat(250)}@example.com`]) {
      const result = magicLinkRequestSchema.safeParse({ email });
      expect(result.success, email).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Valid email is required');
    }
    expect(magicLinkRequestSchema.safeParse({}).success).toBe(false);
  });
});
