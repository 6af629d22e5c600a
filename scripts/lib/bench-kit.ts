// What the benchmark scripts share: percentiles, rounding, running main() with
// clean-up on every way out, and their sites (tests/support/site.ts).
import type { logger } from '#lib/log.ts';
import type { SettingName } from '#server/env.ts';
import { siteProcessEnv, siteSettings, type SiteEnv } from '#tests/support/site.ts';

/** The p-th percentile of an ascending list (nearest rank); 0 for an empty one. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export const round = (n: number, digits = 2) => +n.toFixed(digits);

/**
 * Runs the benchmark and always cleans up (servers, browsers, temp folders),
 * also on Ctrl-C. Exits with main's verdict: 1 when it threw or set
 * process.exitCode. Exits explicitly because tools (Lighthouse, Playwright)
 * can leave handles open after the figures are written.
 */
export function runBenchmark(main: () => Promise<void>, cleanUp: () => Promise<void>, log: ReturnType<typeof logger>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.warn(`${signal}: stopping`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  main()
    .catch((error: unknown) => {
      log.error('failed', error);
      process.exitCode = 1;
    })
    .finally(async () => {
      await cleanUp();
      process.exit(process.exitCode ?? 0);
    });
}

export { SERVER_ARGS } from '#tests/support/site.ts';

/**
 * The environment of a throw-away site in `work` (tests/support/site.ts, as
 * the e2e tests build theirs): its own database, builds and outbox, mail to
 * files (never the caller's SMTP), no request log, quiet builds.
 */
export const benchSiteEnv = (work: string, port: number, extra: Partial<Record<SettingName, string>> = {}): SiteEnv =>
  siteProcessEnv(siteSettings(work, port, extra));

/** The verdict: each missed bar logged, and exit code 1 when there is one. */
export function reportBars(log: ReturnType<typeof logger>, missed: string[]): void {
  if (missed.length) {
    for (const line of missed) log.error(line);
    process.exitCode = 1;
  } else log.info('every bar met');
}

/** Waits until `ready()` holds (polling), or throws after `timeoutMs`. */
export async function waitUntil(ready: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await ready())) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
