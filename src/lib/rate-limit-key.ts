// The part of an e-mail address a rate limit counts. victim+1@example.com,
// victim+2@example.com and Victim@Example.com land in one inbox, so they must
// share one counter; Gmail also ignores dots in the local part. Pure: used by
// the booking, sign-in and newsletter limits alike.

const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The inbox an address reaches, as far as we can tell without asking its
 * server: lower case, `+tag` dropped, and for Gmail the dots dropped and
 * googlemail.com read as gmail.com. Only for counting: mail still goes to the
 * address as typed.
 */
export function rateLimitKeyForEmail(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1).replace(/\.+$/, '');
  const plus = local.indexOf('+');
  // "+tag" only; an address that is all tag ("+x@") keeps what it has.
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    domain = 'gmail.com';
    local = local.replaceAll('.', '') || local;
  }
  return `${local}@${domain}`;
}
