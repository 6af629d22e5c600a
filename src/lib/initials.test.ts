import { describe, expect, it } from 'vitest';
import { fullName, initials } from './initials.ts';

describe('avatar initials', () => {
  it('uses first and last initials, upper-cased', () => {
    expect(initials({ firstName: 'ana', lastName: 'ruiz', email: 'x@y.z' })).toBe('AR');
  });
  it('falls back to the e-mail, then U', () => {
    expect(initials({ firstName: 'Ana', lastName: null, email: 'bella@example.com' })).toBe('B');
    expect(initials({ firstName: null, lastName: null, email: '' })).toBe('U');
    expect(initials({})).toBe('U');
  });
  it('shows a full name only when a first name exists', () => {
    expect(fullName({ firstName: 'Ana', lastName: 'Ruiz' })).toBe('Ana Ruiz');
    expect(fullName({ firstName: 'Ana', lastName: null })).toBe('Ana');
    expect(fullName({ firstName: null, lastName: 'Ruiz' })).toBeNull();
  });
});
