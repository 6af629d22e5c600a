// The site's mail, read from its outbox (MAIL_OUTBOX): one .eml file per
// message, read by the one mail reader (./mail.ts).
import { expect } from '@playwright/test';
import { join } from 'node:path';
import { e2eDir } from './env.ts';
import { readMail, readOutbox, type Mail } from './mail.ts';

export { decodeQuotedPrintable } from './mail.ts';

export const OUTBOX = join(e2eDir, 'outbox');

const isTo = (mail: Mail, email: string) => mail.to.includes(email.toLowerCase());

/** Waits for the newest message to `email` (whose subject contains `subjectPart`, when given); its raw text. */
export async function messageInOutbox(email: string, subjectPart?: string): Promise<string> {
  let found: Mail | undefined;
  await expect
    .poll(
      () => {
        found = readOutbox(OUTBOX).find((mail) => isTo(mail, email) && (!subjectPart || mail.subject.includes(subjectPart)));
        return found;
      },
      { message: `a message to ${email}${subjectPart ? ` about "${subjectPart}"` : ''} in ${OUTBOX}` },
    )
    .toBeDefined();
  return found!.raw;
}

/** Every message to `email`, newest first (no waiting); their raw text. */
export async function messagesTo(email: string): Promise<string[]> {
  return readOutbox(OUTBOX)
    .filter((mail) => isTo(mail, email))
    .map((mail) => mail.raw);
}

/** The first link to `path` in a message's text part. */
export function linkIn(raw: string, path: string): URL {
  const escaped = path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`https?://[^\\s"'<>]+${escaped}[^\\s"'<>]*`).exec(readMail(raw).text);
  expect(match, `a link to ${path} in the text part`).not.toBeNull();
  return new URL(match![0]);
}
