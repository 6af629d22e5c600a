// The payload of a magic-link request: one schema for the sign-in forms and
// the endpoints (POST /api/auth/request, POST /api/magic-auth/send).
import { z } from 'zod';

export const magicLinkRequestSchema = z.object({
  email: z.string().trim().toLowerCase().max(254, 'Valid email is required').pipe(z.email('Valid email is required')),
  next: z.string().max(500).optional(),
});

export type MagicLinkRequestInput = z.input<typeof magicLinkRequestSchema>;
