/** Avatar fallback (spec 2): first and last initials, else the e-mail's first letter, else U. */
export function initials(user: { firstName?: string | null; lastName?: string | null; email?: string | null }): string {
  const first = user.firstName?.trim().charAt(0) ?? '';
  const last = user.lastName?.trim().charAt(0) ?? '';
  if (first && last) return `${first}${last}`.toUpperCase();
  const email = user.email?.trim().charAt(0);
  return (email || 'U').toUpperCase();
}

/** The full name when a first name exists (spec 2, avatar menu), else null. */
export function fullName(user: { firstName?: string | null; lastName?: string | null }): string | null {
  const first = user.firstName?.trim();
  if (!first) return null;
  return [first, user.lastName?.trim()].filter(Boolean).join(' ');
}
