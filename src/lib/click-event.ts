// The body of POST /api/clicks: which spa's which outbound link was followed,
// from which of our pages. Nothing that names the visitor: the server adds the
// session's user, a hash of the address and the User-Agent (docs/decisions/0003,
// 0011). Pure: no server imports.
import { z } from 'zod';
import { optionalText } from './analytics-event.ts';
import { CLICK_KINDS } from './outbound.ts';

export const clickEventSchema = z.object({
  spaId: z.number({ message: 'Must be a spa id' }).int('Must be a spa id').positive('Must be a spa id'),
  kind: z.enum(CLICK_KINDS, `Must be one of ${CLICK_KINDS.join(', ')}`),
  /** The page the link was on: a path of this site, without its query (which may hold a token or an address). */
  page: z
    .string({ message: 'Must be a path' })
    .max(300, 'Must be at most 300 characters')
    .regex(/^\/(?!\/)[^?#\s]*$/, 'Must be a path of this site')
    .nullish()
    .transform((value) => value || null),
  /** The tab's analytics session id (a random id, src/lib/client/analytics.ts). */
  sessionId: optionalText(100),
  utmSource: optionalText(100),
  utmMedium: optionalText(100),
  utmCampaign: optionalText(100),
});

export type ClickEvent = z.output<typeof clickEventSchema>;
export type ClickEventInput = z.input<typeof clickEventSchema>;

export const parseClickEvent = (value: unknown) => clickEventSchema.safeParse(value);
