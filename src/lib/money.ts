// Money is stored as integer cents and served as decimal strings ("150.00"), so
// no float ever rounds a price.

export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const DECIMAL = /^(-)?(\d{1,10})(?:\.(\d{1,2}))?$/;

/** Parses "150", "150.5" or "150.00" into cents; throws on anything else. */
export function decimalToCents(value: string): number {
  const match = DECIMAL.exec(value.trim());
  if (!match) throw new RangeError(`Not a price: ${JSON.stringify(value)}`);
  const [, minus, whole, fraction = ''] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return minus ? -cents : cents;
}

/** "$1,970" — offers show whole dollars (spec 2, Offers). Half a dollar rounds up. */
export function formatWholeDollars(cents: number): string {
  return `$${Math.round(cents / 100).toLocaleString('en-US')}`;
}

/** "$1,970.00" */
export function formatDollars(cents: number): string {
  const [whole = '0', fraction = '00'] = centsToDecimal(Math.abs(cents)).split('.');
  return `${cents < 0 ? '-' : ''}$${Number(whole).toLocaleString('en-US')}.${fraction}`;
}

/** Percent off, whole number, 0 when there is no discount (spec 5: shown only above 0). */
export function discountPercent(originalCents: number, offerCents: number): number {
  if (originalCents <= 0 || offerCents >= originalCents) return 0;
  return Math.round(((originalCents - offerCents) / originalCents) * 100);
}
