// The payload of a magic-link request: one schema for the sign-in forms and
// the endpoints (POST /api/auth/request, POST /api/magic-auth/send). Written
// with zod/mini, the tree-shakable build, because the form ships it to browsers.
import * as z from 'zod/mini';

const MESSAGE = 'Valid email is required';

/** An e-mail address, trimmed and lower-cased: sign-in, newsletter. */
export const emailAddress = z.pipe(z.string(MESSAGE).check(z.trim(), z.toLowerCase(), z.maxLength(254, MESSAGE)), z.email(MESSAGE));

export const magicLinkRequestSchema = z.object({
  email: emailAddress,
  next: z.optional(z.string().check(z.maxLength(500))),
  /** Who asks: 'owner' from /owner/login (they land on the dashboard); a client otherwise. */
  for: z.optional(z.enum(['client', 'owner'])),
});

export const newsletterSignupSchema = z.object({ email: emailAddress });
