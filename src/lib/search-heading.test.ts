import { describe, expect, it } from 'vitest';
import { providersFoundHeading } from './search-heading.ts';

describe('providersFoundHeading', () => {
  it('is the spec’s heading, singular for one provider', () => {
    expect(providersFoundHeading(0)).toBe('0 Distinguished Providers Found');
    expect(providersFoundHeading(1)).toBe('1 Distinguished Provider Found');
    expect(providersFoundHeading(19)).toBe('19 Distinguished Providers Found');
  });
});
