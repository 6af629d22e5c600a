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
