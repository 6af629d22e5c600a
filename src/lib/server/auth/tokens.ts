// Random tokens and their hashes, for sessions and magic links.
import { sha256 } from '@oslojs/crypto/sha2';
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { decodeHex, encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';

/** `bytes` from the platform CSPRNG, as lower-case base32 (8 chars per 5 bytes). */
export function randomToken(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  return encodeBase32LowerCaseNoPadding(buffer);
}

export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

/** Compares a token with a stored hex hash in constant time. */
export function tokenMatchesHash(token: string, storedHash: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(storedHash)) return false;
  return constantTimeEqual(sha256(new TextEncoder().encode(token)), decodeHex(storedHash));
}
