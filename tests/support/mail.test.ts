import nodemailer, { type SendMailOptions } from 'nodemailer';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMail, readOutbox } from './mail.ts';

// Messages as the site's mailer writes them: nodemailer, multipart/alternative,
// non-ASCII subjects and long lines that force encoded words and quoted-printable.
async function compose(message: SendMailOptions): Promise<string> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await transport.sendMail({ from: 'Directory <hello@example.com>', ...message });
  return (info.message as Buffer).toString('utf8');
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('readMail', () => {
  it('reads addresses, an encoded subject and both decoded parts', async () => {
    const link = `https://example.com/auth/confirm?token=${'a'.repeat(90)}&next=%2Fdashboard`;
    const mail = readMail(
      await compose({
        to: '"Avery Kim" <Avery@Example.com>',
        replyTo: 'client@example.com',
        subject: 'Rendez-vous confirmé — Mail Spa ✓',
        text: `Hello Avery,\nconfirm here: ${link}\n`,
        html: `<p>Hello <b>Avery</b> — <a href="${link}">confirm</a></p>`,
      }),
    );
    expect(mail.from).toBe('hello@example.com');
    expect(mail.to).toEqual(['avery@example.com']);
    expect(mail.replyTo).toEqual(['client@example.com']);
    expect(mail.subject).toBe('Rendez-vous confirmé — Mail Spa ✓');
    expect(mail.text).toContain(`confirm here: ${link}`);
    expect(mail.html).toContain(`<a href="${link}">confirm</a>`);
  });

  it('reads the outbox newest first, and an outbox that does not exist as empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mail-reader-'));
    dirs.push(dir);
    writeFileSync(join(dir, '2026-11-23T100000.000Z-aa.eml'), await compose({ to: 'first@example.com', subject: 'First', text: 'one' }));
    writeFileSync(join(dir, '2026-11-23T100001.000Z-bb.eml'), await compose({ to: 'second@example.com', subject: 'Second', text: 'two' }));
    writeFileSync(join(dir, '2026-11-23T100002.000Z-cc.eml.partial'), 'half a message');
    expect(readOutbox(dir).map((mail) => mail.subject)).toEqual(['Second', 'First']);
    expect(readOutbox(join(dir, 'missing'))).toEqual([]);
  });
});
