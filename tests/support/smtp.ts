// For tests only: a real SMTP server on 127.0.0.1 and enough MIME to read
// what nodemailer writes (unfolded headers, nested multiparts,
// quoted-printable and base64 bodies). Used by mailer.test.ts and
// booking-mail.test.ts.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerError } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface LoopbackSmtp {
  url: string;
  received: ReceivedMail[];
  attempts: () => number;
  close: () => Promise<void>;
}

/** Starts the server; `reply` may refuse an attempt (numbered from 1) with an error. Close it when done. */
export async function startLoopbackSmtp(reply: (attempt: number) => SMTPServerError | null = () => null): Promise<LoopbackSmtp> {
  const received: ReceivedMail[] = [];
  let attempts = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        attempts++;
        const error = reply(attempts);
        if (error) return callback(error);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    attempts: () => attempts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const smtpError = (responseCode: number, message: string): SMTPServerError => Object.assign(new Error(message), { responseCode });

export interface MimePart {
  headers: Record<string, string>;
  body: string;
  parts: MimePart[];
}

export function parseMime(raw: string): MimePart {
  const text = raw.replace(/\r\n/g, '\n');
  const split = text.indexOf('\n\n');
  const headers: Record<string, string> = {};
  for (const line of text.slice(0, split).replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(split + 2);
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1).map((part) => parseMime(part.replace(/^\n/, ''))) : [];
  return { headers, body: decodeBody(body, headers['content-transfer-encoding']), parts };
}

function decodeBody(body: string, encoding = '7bit'): string {
  if (/base64/i.test(encoding)) return Buffer.from(body, 'base64').toString('utf8');
  if (/quoted-printable/i.test(encoding)) {
    const bytes = body.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

export const allParts = (part: MimePart): MimePart[] => [part, ...part.parts.flatMap(allParts)];
export const partOfType = (root: MimePart, type: string) => allParts(root).find((part) => (part.headers['content-type'] ?? '').startsWith(type));
