// The one mail reader of the tests and benchmarks: a message as nodemailer
// writes it (caught by the loopback SMTP server, tests/support/smtp.ts, or an
// .eml file in the outbox, tests/support/outbox.ts and the booking benchmark)
// read into one shape. Enough MIME for that: unfolded headers, RFC 2047
// encoded words, nested multiparts, quoted-printable and base64 bodies.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface MimePart {
  /** Names in lower case, values unfolded and as written (encoded words left alone). */
  headers: Record<string, string>;
  /** Decoded from its Content-Transfer-Encoding. */
  body: string;
  parts: MimePart[];
}

export interface Mail {
  raw: string;
  root: MimePart;
  /** Addresses in lower case. */
  from: string;
  to: string[];
  replyTo: string[];
  /** Encoded words decoded. */
  subject: string;
  /** The text/plain and text/html parts, decoded ('' when absent). */
  text: string;
  html: string;
}

export function parseMime(raw: string): MimePart {
  const text = raw.replace(/\r\n/g, '\n');
  const split = text.indexOf('\n\n');
  const headers: Record<string, string> = {};
  for (const line of text
    .slice(0, split)
    .replace(/\n[ \t]+/g, ' ')
    .split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(split + 2);
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((part) => parseMime(part.replace(/^\n/, '')))
    : [];
  return { headers, body: decodeBody(body, headers['content-transfer-encoding']), parts };
}

const fromQuotedPrintable = (text: string) =>
  Buffer.from(
    text.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

function decodeBody(body: string, encoding = '7bit'): string {
  if (/base64/i.test(encoding)) return Buffer.from(body, 'base64').toString('utf8');
  if (/quoted-printable/i.test(encoding)) return fromQuotedPrintable(body.replace(/=\n/g, ''));
  return body;
}

/** RFC 2047 encoded words (=?utf-8?B?...?= and =?utf-8?Q?...?=). */
export const decodeWords = (text: string) =>
  text
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([BbQq])\?([^?]*)\?=/g, (_, kind: string, data: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : fromQuotedPrintable(data.replace(/_/g, ' ')),
    );

/** A raw message with quoted-printable soft breaks and "=3D" undone: enough to search the whole message (headers, every part) for a text. */
export const decodeQuotedPrintable = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');

export const allParts = (part: MimePart): MimePart[] => [part, ...part.parts.flatMap(allParts)];
export const partOfType = (root: MimePart, type: string) => allParts(root).find((part) => (part.headers['content-type'] ?? '').startsWith(type));

const addresses = (text = '') => [...text.matchAll(/[^\s<>,"]+@[^\s<>,"]+/g)].map((m) => m[0].toLowerCase());

export function readMail(raw: string): Mail {
  const root = parseMime(raw);
  return {
    raw,
    root,
    from: addresses(root.headers.from)[0] ?? '',
    to: addresses(root.headers.to),
    replyTo: addresses(root.headers['reply-to']),
    subject: decodeWords(root.headers.subject ?? '').trim(),
    text: partOfType(root, 'text/plain')?.body ?? '',
    html: partOfType(root, 'text/html')?.body ?? '',
  };
}

/** The .eml files in an outbox folder (MAIL_OUTBOX), by name; none when the folder does not exist yet. */
export function outboxFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
}

// A message file is written once (the mailer renames it into place whole), so
// what was read is kept: a run's outbox grows to a thousand messages, and tests
// poll it for the one they wait for.
const readFiles = new Map<string, Mail>();

/** Every message in an outbox folder, newest first (the files are named by the time they were written). */
export const readOutbox = (dir: string): Mail[] =>
  outboxFiles(dir)
    .reverse()
    .map((name) => {
      const path = join(dir, name);
      let mail = readFiles.get(path);
      if (!mail) readFiles.set(path, (mail = readMail(readFileSync(path, 'utf8'))));
      return mail;
    });
