// For tests only: a real SMTP server on 127.0.0.1 that keeps what it is sent.
// Used by mailer.test.ts and booking-mail.test.ts; read a message with
// readMail (tests/support/mail.ts).
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

// What the server caught is read by the one mail reader (./mail.ts); these
// re-exports keep the tests beside the mailer reading from here.
export { allParts, parseMime, partOfType, readMail, type Mail, type MimePart } from './mail.ts';
