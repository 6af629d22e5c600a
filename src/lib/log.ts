// The project's logger: one line per event, "scope: message", to stdout (info)
// or stderr (warn, error), so the server log and CLI progress read the same.
type Level = 'info' | 'warn' | 'error';

function write(level: Level, scope: string, message: string, detail?: unknown) {
  const line = `${scope}: ${message}${detail === undefined ? '' : ` ${detail instanceof Error ? (detail.stack ?? detail.message) : JSON.stringify(detail)}`}\n`;
  (level === 'info' ? process.stdout : process.stderr).write(line);
}

export function logger(scope: string) {
  return {
    info: (message: string, detail?: unknown) => write('info', scope, message, detail),
    warn: (message: string, detail?: unknown) => write('warn', scope, message, detail),
    error: (message: string, detail?: unknown) => write('error', scope, message, detail),
  };
}

/**
 * One structured line (JSON) for machines: a request served, a job run. Never
 * pass tokens or e-mail addresses in the fields.
 */
export function logEvent(scope: string, fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), scope, ...fields })}\n`);
}

/** A path fit for a log: no query string, and any segment that looks like a token replaced. */
export function loggablePath(url: string): string {
  const path = url.split('?')[0] ?? '/';
  return (
    path
      .split('/')
      // Our tokens are base32 (no hyphens); slugs have hyphens between words.
      .map((segment) => (/^[A-Za-z0-9_]{20,}$/.test(segment) ? ':token' : segment))
      .join('/')
  );
}
