import { describe, expect, it } from 'vitest';
import { roleLinks } from './role-links.ts';

describe('roleLinks', () => {
  it('leads owners to their dashboard and editors to the desk as well', () => {
    expect(roleLinks('client')).toEqual([]);
    expect(roleLinks(undefined)).toEqual([]);
    expect(roleLinks('owner')).toEqual([{ label: 'Owner dashboard', href: '/owner/dashboard' }]);
    expect(roleLinks('admin')).toEqual([
      { label: 'Owner dashboard', href: '/owner/dashboard' },
      { label: 'Editor desk', href: '/admin' },
    ]);
  });
});
