// The site's mail, read from its outbox (MAIL_OUTBOX): one .eml file per message.
import { expect } from '@playwright/test';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { e2eDir } from './env.ts';

export const OUTBOX = join(e2eDir, 'outbox');

/** A raw message with quoted-printable soft breaks and "=3D" undone, enough to read links and headers. */
export const decodeQuotedPrintable = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');

async function allMessages(): Promise<string[]> {
  const names = (await readdir(OUTBOX).catch(() => [] as string[])).filter((name) => name.endsWith('.eml')).sort().reverse();
  return Promise.all(names.map((name) => readFile(join(OUTBOX, name), 'utf8')));
}

const recipient = (raw: string) => /^To: (.*)$/im.exec(raw)?.[1]?.trim().toLowerCase();
const subject = (raw: string) => /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';

/** Waits for the newest message to `email` (whose subject contains `subjectPart`, when given). */
export async function messageInOutbox(email: string, subjectPart?: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const messages = await allMessages();
        found = messages.find((raw) => recipient(raw) === email.toLowerCase() && (!subjectPart || subject(raw).includes(subjectPart)));
        return found;
      },
      { message: `a message to ${email}${subjectPart ? ` about "${subjectPart}"` : ''} in ${OUTBOX}` },
    )
    .toBeDefined();
  return found!;
}

/** Every message to `email`, newest first (no waiting). */
export async function messagesTo(email: string): Promise<string[]> {
  return (await allMessages()).filter((raw) => recipient(raw) === email.toLowerCase());
}

/** The first link to `path` in a message's text part. */
export function linkIn(raw: string, path: string): URL {
  const decoded = decodeQuotedPrintable(raw);
  const textPart = decoded.slice(decoded.search(/content-type:\s*text\/plain/i));
  const escaped = path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`https?://[^\\s"'<>]+${escaped}[^\\s"'<>]*`).exec(textPart);
  expect(match, `a link to ${path} in the text part`).not.toBeNull();
  return new URL(match![0]);
}
