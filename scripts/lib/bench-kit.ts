// What the benchmark scripts (bench.ts, bench-pages.ts, bench-bookings.ts) share:
// percentiles, rounding, and running main() with clean-up on every way out.
import type { logger } from '../../src/lib/log.ts';

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

/**
 * How the benchmarks start the server: as production does (package.json's
 * start and serve, docs/deploy.md), with a small young generation. V8 sizes
 * it for the machine's memory, which kept the server near 320 MB resident
 * after a little load; at 4 MB per semi-space it stays near 170 MB with the
 * same p99 (bench-bodies, 2026-11-23).
 */
export const SERVER_ARGS = ['--max-semi-space-size=4', 'scripts/serve.ts'];
