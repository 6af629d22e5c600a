// What the benchmark scripts share: their command lines, percentiles, rounding,
// running main() with clean-up on every way out, their sites
// (tests/support/site.ts), waiting for a server, and writing the figures.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { logger } from '#lib/log.ts';
import type { SettingName } from '#server/env.ts';
import { siteProcessEnv, siteSettings, type SiteEnv } from '#tests/support/site.ts';

type Log = ReturnType<typeof logger>;

/**
 * The command line: `numbers` are the options that take a whole number of at
 * least 1 (`--port 4400`), with their defaults; `texts` those that take any
 * text and have no default. A number option given anything else ends the
 * process with exit code 2, naming it; an unknown option throws (parseArgs).
 */
export function benchArgs<N extends string, T extends string = never>(
  log: Log,
  numbers: Record<N, number>,
  texts: readonly T[] = [],
): Record<N, number> & Partial<Record<T, string>> {
  const options: ParseArgsOptionsConfig = {};
  for (const [name, n] of Object.entries<number>(numbers)) options[name] = { type: 'string', default: String(n) };
  for (const name of texts) options[name] = { type: 'string' };
  const { values } = parseArgs({ options });
  const args: Record<string, unknown> = { ...values };
  for (const name of Object.keys(numbers)) {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < 1) {
      log.error(`--${name} must be a positive whole number`);
      process.exit(2);
    }
    args[name] = n;
  }
  return args as Record<N, number> & Partial<Record<T, string>>;
}

/** The p-th percentile of an ascending list (nearest rank); 0 for an empty one. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export const round = (n: number, digits = 2) => +n.toFixed(digits);

/**
 * What a benchmark leaves behind, for runBenchmark to clean up: most start
 * server processes (asked for at the end: they may have been replaced) that get
 * SIGTERM and `graceMs` to exit, and work in a temp folder that is then
 * removed. Anything else is a function of its own.
 */
export type Leftovers = { processes: () => (ChildProcess | null)[]; graceMs: number; work: string | null } | (() => Promise<void>);

async function stopAndRemove({ processes, graceMs, work }: Exclude<Leftovers, () => Promise<void>>): Promise<void> {
  for (const child of processes()) child?.kill('SIGTERM');
  await delay(graceMs);
  if (work) rmSync(work, { recursive: true, force: true });
}

/**
 * Runs the benchmark and always cleans up (servers, browsers, temp folders),
 * also on Ctrl-C. Exits with main's verdict: 1 when it threw or set
 * process.exitCode. Exits explicitly because tools (Lighthouse, Playwright)
 * can leave handles open after the figures are written.
 */
export function runBenchmark(main: () => Promise<void>, leftovers: Leftovers, log: Log): void {
  const cleanUp = typeof leftovers === 'function' ? leftovers : () => stopAndRemove(leftovers);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.warn(`${signal}: stopping`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  main()
    .catch((error: unknown) => {
      // fetch's own message ('fetch failed') names nothing: its cause does.
      log.error('failed', error instanceof Error && error.cause ? `${error.message}: ${String(error.cause)}` : error);
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
export function reportBars(log: Log, missed: string[], bar = 'bar'): void {
  if (missed.length) {
    for (const line of missed) log.error(line);
    process.exitCode = 1;
  } else log.info(`every ${bar} met`);
}

/** Writes the figures to data/bench/<name>.json, where the README and the issues read them from. */
export function writeFigures(log: Log, name: string, figures: object): void {
  const file = `data/bench/${name}.json`;
  mkdirSync('data/bench', { recursive: true });
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  log.info(`figures written to ${file}`);
}

/** Waits until `ready()` holds (polling), or throws after `timeoutMs`. */
export async function waitUntil(ready: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await ready())) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether `url` answers 2xx (a refused connection is a no: the server is not up yet). */
export const answers = (url: string): Promise<boolean> =>
  fetch(url)
    .then((r) => r.ok)
    .catch(() => false);

/** Waits until the server at `origin` says it is ready (/readyz answers 200). */
export const waitForReady = (origin: string, timeoutMs = 120_000): Promise<void> =>
  waitUntil(() => answers(`${origin}/readyz`), `${origin} answering /readyz`, timeoutMs);
