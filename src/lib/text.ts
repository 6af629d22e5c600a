/** Cuts text at `max` characters (spec 9: spa descriptions at 120 in cards), adding an ellipsis. */
export function truncate(text: string | null | undefined, max: number): string {
  if (!text) return '';
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

/** "(949) 555-0111" -> "tel:+19495550111" */
export function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `tel:+${digits.length === 10 ? `1${digits}` : digits}`;
}

/** "https://www.example.com/path" -> "example.com/path" */
export function displayUrl(url: string): string {
  return url.replace(/^https?:\/\/(www\.)?/, '').replace(/\/$/, '');
}

const PLATFORM_NAMES: Record<string, string> = { instagram: 'Instagram', tiktok: 'TikTok', youtube: 'YouTube' };

/** The social platform's own spelling, for link text. */
export const platformLabel = (platform: string | null | undefined) => (platform && PLATFORM_NAMES[platform]) || 'Social media';

/** "Glow Spa’s", and "Harborlight Aesthetics’" for a name ending in s (the plural's apostrophe, not "Aesthetics’s"). */
export function possessive(name: string): string {
  const trimmed = name.trim();
  return /s$/i.test(trimmed) ? `${trimmed}’` : `${trimmed}’s`;
}
