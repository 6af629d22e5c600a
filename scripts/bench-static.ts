// `npm run bench` (static part): production's stack, nginx in front (the
// configuration of deploy/nginx/, server/nginx-config.ts) with the Node server
// behind it, against nginx alone on the same built files, in one run, with wrk
// over TLS (a self-signed certificate; wrk does not check it). For the home
// page and a spa page: requests/s and p99, plain and brotli (medians of rounds
// taken in turn). Bar (issue 27): the stack at least 0.95 of nginx alone on
// requests/s (the median of the rounds' ratios), nginx alone sending the same headers as the front (see
// SameHeaders; bare nginx is measured and reported too). Then what only Node
// answers, through the front: the signed-in home and a search page (p99).
// For the decision record, the Node server alone
// (`npm start`, sirv) on the same pages. Figures: data/bench/static.json; a
// missing nginx or wrk is named, not faked.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { logger } from '#lib/log.ts';
import { currentBuildDir } from '#lib/server/published-site.ts';
import { securityHeadersInclude } from '#server/nginx-config.ts';
import { readPagePolicies } from '#server/static-site.ts';
import { nginxMain, nginxMissing, runNginx, selfSignedCertificate, startFront, type RunningNginx } from '#tests/support/nginx.ts';
import { insertSignedInUser } from '#tests/support/session-rows.ts';
import { buildSite, prepareSite } from '#tests/support/site.ts';
import { benchArgs, benchSiteEnv, reportBars, round, runBenchmark, SERVER_ARGS, waitForReady, writeFigures } from './lib/bench-kit.ts';

const log = logger('bench-static');
const args = benchArgs(log, { port: 4392, seconds: 3, connections: 16, rounds: 5 });
const { rounds, port } = args;
const frontPort = port + 1;
const alonePort = port + 2;
const sameHeadersPort = port + 3;
const BAR = 0.95;
// With two cores or more, wrk runs on the first and every nginx on the second:
// left to the scheduler, the client and the server measured took each other's
// core by turns, and rounds of the same pair seconds apart differed by half.
const pinned = availableParallelism() >= 2 && spawnSync('sh', ['-c', 'command -v taskset && command -v pgrep']).status === 0;

/** Moves an nginx (its master and workers) onto the second core, when pinned. */
function pinServer(nginx: RunningNginx): void {
  if (!pinned) return;
  const workers = spawnSync('pgrep', ['-P', String(nginx.pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);
  for (const pid of [String(nginx.pid), ...workers]) spawnSync('taskset', ['-a', '-p', '-c', '1', pid], { stdio: 'ignore' });
}
const work = mkdtempSync(join(tmpdir(), 'medspa-bench-static-'));
// nginx's workers may run as another user: let them read the build.
chmodSync(work, 0o755);
const env = benchSiteEnv(work, port, { SITE_URL: `https://127.0.0.1:${frontPort}`, TRUST_PROXY: '1' });
const children: ChildProcess[] = [];
const fronts: RunningNginx[] = [];

/**
 * The same answers' headers as the front sends with a page: the security
 * headers (one include, from the table the front uses) and the page's policy.
 * About 2 KB an answer, against a home page of 27 KB in brotli; the bar is
 * about what the front's routing and logging cost, so it is judged against
 * nginx alone sending what the front sends (both are reported).
 */
interface SameHeaders {
  include: string;
  policy: string;
}

/** nginx alone: the same files, TLS, compressed copies and open-file cache as the front, and nothing else (but `headers`, when given). */
function aloneSite(root: string, certificate: string, key: string, listenPort: number, headers?: SameHeaders): string {
  const sent = headers
    ? `include ${headers.include};
      add_header Content-Security-Policy $alone_page_policy always;`
    : '';
  return `${
    headers
      ? `  map $sent_http_content_type $alone_page_policy { ~^text/html "${headers.policy}"; default ""; }
`
      : ''
  }  server {
    listen 127.0.0.1:${listenPort} ssl http2;
    ssl_certificate ${certificate};
    ssl_certificate_key ${key};
    ssl_protocols TLSv1.2 TLSv1.3;
    access_log off;
    root ${root};
    brotli_static on;
    gzip_static on;
    gzip_vary on;
    sendfile on;
    tcp_nopush on;
    charset utf-8;
    open_file_cache max=10000 inactive=60s;
    open_file_cache_valid 2s;
    keepalive_requests 10000;
    location /_astro/ { ${sent} add_header Cache-Control "public, max-age=31536000, immutable"; }
    location / { ${sent} try_files $uri $uri/index.html =404; }
  }`;
}

interface WrkResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The median of each figure over the rounds (errors: all of them). */
function medianOf(runs: WrkResult[]): WrkResult {
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

function wrk(url: string, headers: Record<string, string> = {}): WrkResult {
  const wrkArgs = [
    '-t1',
    `-c${args.connections}`,
    `-d${args.seconds}s`,
    '--latency',
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    url,
  ];
  const out = (pinned ? spawnSync('taskset', ['-c', '0', 'wrk', ...wrkArgs], { encoding: 'utf8' }) : spawnSync('wrk', wrkArgs, { encoding: 'utf8' })).stdout;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99Ms = p99 ? Number(p99[1]) * (p99[2] === 'us' ? 0.001 : p99[2] === 's' ? 1000 : 1) : NaN;
  const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors:.*?timeout (\d+)/.exec(out)?.[1] ?? 0);
  return { requestsPerSecond: round(rps, 0), p99Ms: round(p99Ms, 2), errors };
}

async function main() {
  const missing =
    nginxMissing() ?? (spawnSync('sh', ['-c', 'command -v wrk']).status === 0 ? null : 'wrk is not installed (scripts/bootstrap.sh npm run bench installs it)');
  if (missing) throw new Error(missing);
  prepareSite(env);
  buildSite(env);
  const build = currentBuildDir(env.SITE_DIR)!;

  children.push(spawn(process.execPath, SERVER_ARGS, { env, stdio: ['ignore', 'ignore', 'inherit'] }));
  await waitForReady(`http://127.0.0.1:${port}`);
  const front = await startFront({ dir: join(work, 'front'), siteDir: env.SITE_DIR, siteUrl: env.SITE_URL, port: frontPort, upstreamPort: port });
  fronts.push(front);
  const aloneDir = join(work, 'alone');
  mkdirSync(aloneDir);
  const { certificate, key } = selfSignedCertificate(aloneDir);
  const alone = await runNginx(
    aloneDir,
    nginxMain(aloneDir, aloneSite(join(build, 'client'), certificate, key, alonePort)),
    `https://127.0.0.1:${alonePort}`,
    certificate,
    '/',
  );
  fronts.push(alone);
  const sameDir = join(work, 'alone-same-headers');
  mkdirSync(sameDir);
  const include = join(sameDir, 'security-headers.conf');
  writeFileSync(include, securityHeadersInclude(env.SITE_URL!));
  const [policy = ''] = new Set(readPagePolicies(build).values());
  const same = await runNginx(
    sameDir,
    nginxMain(sameDir, aloneSite(join(build, 'client'), certificate, key, sameHeadersPort, { include, policy })),
    `https://127.0.0.1:${sameHeadersPort}`,
    certificate,
    '/',
  );
  fronts.push(same);
  for (const nginx of fronts) pinServer(nginx);

  const stacks = { front: front.origin, alone: alone.origin, same: same.origin, node: `http://127.0.0.1:${port}` };
  const pages = { home: '/', spa: '/spas/harborlight-aesthetics' };
  const results: Record<string, unknown> = {};
  const missed: string[] = [];
  for (const [name, path] of Object.entries(pages)) {
    for (const [mode, headers] of [
      ['plain', {}],
      ['br', { 'Accept-Encoding': 'br' }],
    ] as const) {
      // A warm-up for each, then rounds taken in turn: this machine's speed
      // drifts by half within a minute, and turns share the drift.
      for (const origin of Object.values(stacks)) wrk(`${origin}${path}`, headers);
      const runs: Record<keyof typeof stacks, WrkResult[]> = { front: [], alone: [], same: [], node: [] };
      // Every other round in the reverse order, so no stack always follows the same one.
      for (let i = 0; i < rounds; i++) {
        const order = Object.entries(stacks);
        if (i % 2) order.reverse();
        for (const [stack, origin] of order) runs[stack as keyof typeof stacks].push(wrk(`${origin}${path}`, headers));
      }
      const [f, a, h, n] = [medianOf(runs.front), medianOf(runs.alone), medianOf(runs.same), medianOf(runs.node)];
      // Each round's stacks ran seconds apart, so their ratio is free of the
      // drift between rounds that the medians of each stack are not.
      const roundRatios = (other: WrkResult[]) => runs.front.map((run, i) => round(run.requestsPerSecond / Math.max(other[i]!.requestsPerSecond, 1)));
      const [sameRatios, bareRatios] = [roundRatios(runs.same), roundRatios(runs.alone)];
      const ratio = median(sameRatios);
      results[`${name}.${mode}`] = {
        front: f,
        aloneSameHeaders: h,
        ratio,
        roundRatios: sameRatios,
        alone: a,
        ratioToBareNginx: median(bareRatios),
        node: n,
        nodeRatio: round(n.requestsPerSecond / Math.max(h.requestsPerSecond, 1)),
      };
      log.info(
        `${name} ${mode}: front ${f.requestsPerSecond}/s p99 ${f.p99Ms} ms; nginx alone with the same headers ${h.requestsPerSecond}/s p99 ${h.p99Ms} ms (ratio ${ratio}, rounds ${sameRatios.join(', ')}); bare nginx ${a.requestsPerSecond}/s p99 ${a.p99Ms} ms (ratio ${median(bareRatios)}); Node alone ${n.requestsPerSecond}/s p99 ${n.p99Ms} ms`,
      );
      if (ratio < BAR) missed.push(`${name} ${mode}: the stack serves ${ratio} of nginx alone's requests/s (same headers), bar ${BAR}`);
      if (f.errors || a.errors || h.errors) missed.push(`${name} ${mode}: ${f.errors + a.errors + h.errors} failed requests`);
    }
  }

  // What only Node answers, through the front.
  const member = insertSignedInUser(env.DATABASE_PATH, { firstName: 'Bench' });
  const rendered = {
    signedInHome: { path: '/', headers: { Cookie: `__Host-session=${member.token}`, 'Accept-Encoding': 'br, gzip' } },
    search: { path: '/search-results?service=botox&city=irvine', headers: { 'Accept-Encoding': 'br, gzip' } },
  };
  for (const [name, { path, headers }] of Object.entries(rendered)) {
    wrk(`${front.origin}${path}`, headers);
    const result = medianOf(Array.from({ length: rounds }, () => wrk(`${front.origin}${path}`, headers)));
    results[name] = { front: result };
    log.info(`${name} through the front: ${result.requestsPerSecond}/s p99 ${result.p99Ms} ms`);
    if (result.errors) missed.push(`${name}: ${result.errors} failed requests`);
  }
  writeFigures(log, 'static', { date: new Date().toISOString(), connections: args.connections, seconds: args.seconds, rounds, tls: true, pinned, results });
  reportBars(log, missed);
}

runBenchmark(
  main,
  async () => {
    for (const nginx of fronts) await nginx.stop();
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    spawnSync('rm', ['-rf', work]);
  },
  log,
);
