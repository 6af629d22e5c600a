// The Nu HTML checker (vnu-jar, the W3C validator's engine; scripts/bootstrap.sh
// installs the Java it needs), run once over every document a test collected.
// Errors only; warnings are advice.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface VnuMessage {
  type: string;
  url: string;
  message: string;
  lastLine?: number;
  extract?: string;
}

// The checker runs a few seconds: the JVM's optimising compiler and parallel
// collector cost more CPU than the checking (six pages: 8.4-8.7 s of CPU
// against 3.8 with the quick compiler alone and the serial collector, the same
// messages). The quick compiler's frames overflow the default 1 MB stack in
// the schema's recursion (the checker's own advice: at least 512 KB).
const JVM_FOR_ONE_SHORT_RUN = ['-Xss4m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/** The checker's errors in the documents, one line each (file, line, message, the markup); [] when they are valid. */
export function htmlErrors(documents: { name: string; html: string }[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'vnu-'));
  const files = documents.map(({ name, html }) => {
    const file = join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.html`);
    writeFileSync(file, html);
    return file;
  });
  let output = '';
  try {
    execFileSync('java', [...JVM_FOR_ONE_SHORT_RUN, '-jar', 'node_modules/vnu-jar/build/dist/vnu.jar', '--errors-only', '--format', 'json', ...files], {
      stdio: 'pipe',
    });
  } catch (error) {
    // The checker exits 1 when it found errors and writes its report to stderr.
    output = String((error as { stderr?: Buffer }).stderr ?? error);
  }
  const messages = output ? (JSON.parse(output) as { messages: VnuMessage[] }).messages : [];
  return messages.map((m) => `${m.url.replace(/^.*\//, '')}:${m.lastLine ?? '?'} ${m.message} ${JSON.stringify(m.extract ?? '')}`);
}
