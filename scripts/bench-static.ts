// `npm run bench` (sixth part): the project's server against nginx on the same
// built files and the same machine, with wrk. For the home page and a spa
// page: requests/s and p99 (medians of rounds taken in turn), plain and gzip
// (nginx serves our .gz copies with gzip_static, as a tuned nginx would), and
// brotli for ours alone. Both log nothing per request. Goal (issue 15): ratio >= 1.0. Figures go to
// data/bench/static.json; a missing nginx or wrk is named, not faked.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logger } from '#lib/log.ts';
import { buildSite, prepareSite } from '#tests/support/site.ts';
import { answers, benchArgs, benchSiteEnv, round, runBenchmark, SERVER_ARGS, waitUntil, writeFigures } from './lib/bench-kit.ts';

const log = logger('bench-static');
const args = benchArgs(log, { port: 4392, seconds: 4, connections: 16, rounds: 3 });
const { rounds, port } = args;
const nginxPort = port + 1;
const work = mkdtempSync(join(tmpdir(), 'medspa-bench-static-'));
// nginx's workers run as another user when it is started as root: let them read the build.
chmodSync(work, 0o755);
const env = benchSiteEnv(work, port);
const children: ChildProcess[] = [];

function need(command: string) {
  if (spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0)
    throw new Error(`${command} is not installed (scripts/bootstrap.sh npm run bench installs it)`);
}

const waitFor = (url: string) => waitUntil(() => answers(url), `${url} answering`, 30_000);

function nginxConfig(root: string): string {
  return `worker_processes 1;
pid ${work}/nginx.pid;
error_log ${work}/nginx-error.log;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path ${work}/nginx-body;
  proxy_temp_path ${work}/nginx-proxy;
  fastcgi_temp_path ${work}/nginx-fastcgi;
  uwsgi_temp_path ${work}/nginx-uwsgi;
  scgi_temp_path ${work}/nginx-scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  gzip_static on;
  gzip on;
  gzip_types text/css application/javascript image/svg+xml application/json application/xml;
  server {
    listen 127.0.0.1:${nginxPort};
    root ${root};
    location /_astro/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
    location / { try_files $uri $uri/index.html =404; }
  }
}
`;
}

interface WrkResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

/** The median of each figure over the rounds (errors: all of them). */
function medianOf(runs: WrkResult[]): WrkResult {
  const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

function wrk(url: string, encoding: string | null): WrkResult {
  const wrkArgs = ['-t1', `-c${args.connections}`, `-d${args.seconds}s`, '--latency', ...(encoding ? ['-H', `Accept-Encoding: ${encoding}`] : []), url];
  const out = spawnSync('wrk', wrkArgs, { encoding: 'utf8' }).stdout;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99Ms = p99 ? Number(p99[1]) * (p99[2] === 'us' ? 0.001 : p99[2] === 's' ? 1000 : 1) : NaN;
  const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors:.*?timeout (\d+)/.exec(out)?.[1] ?? 0);
  return { requestsPerSecond: round(rps, 0), p99Ms: round(p99Ms, 2), errors };
}

async function main() {
  need('wrk');
  need('nginx');
  prepareSite(env);
  buildSite(env);
  const client = join(realpathSync(join(env.SITE_DIR!, 'current')), 'client');

  const ours = spawn(process.execPath, SERVER_ARGS, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(ours);
  writeFileSync(join(work, 'nginx.conf'), nginxConfig(client));
  const nginx = spawn('nginx', ['-c', join(work, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(nginx);
  await waitFor(`http://127.0.0.1:${port}/healthz`);
  await waitFor(`http://127.0.0.1:${nginxPort}/`);

  const pages = { home: '/', spa: '/spas/harborlight-aesthetics' };
  const results: Record<string, unknown> = {};
  for (const [name, path] of Object.entries(pages)) {
    for (const [mode, encoding] of [
      ['plain', null],
      ['gzip', 'gzip'],
      ['br', 'br'],
    ] as const) {
      // A warm-up for each, then rounds taken in turn, ours then nginx: this
      // machine's speed drifts by half within a minute, and turns share the drift.
      wrk(`http://127.0.0.1:${port}${path}`, encoding);
      const ours: WrkResult[] = [];
      const theirs: WrkResult[] = [];
      for (let round = 0; round < rounds; round++) {
        ours.push(wrk(`http://127.0.0.1:${port}${path}`, encoding));
        if (mode !== 'br') theirs.push(wrk(`http://127.0.0.1:${nginxPort}${path}`, encoding));
      }
      const project = medianOf(ours);
      const peer = theirs.length ? medianOf(theirs) : null;
      results[`${name}.${mode}`] = {
        project,
        nginx: peer,
        ratio: peer
          ? {
              requestsPerSecond: round(project.requestsPerSecond / Math.max(peer.requestsPerSecond, 1)),
              p99: round(peer.p99Ms / Math.max(project.p99Ms, 0.001)),
            }
          : null,
      };
      log.info(
        `${name} ${mode}: ours ${project.requestsPerSecond}/s p99 ${project.p99Ms} ms${peer ? `; nginx ${peer.requestsPerSecond}/s p99 ${peer.p99Ms} ms` : ''}`,
      );
    }
  }
  const figures = { date: new Date().toISOString(), connections: args.connections, seconds: args.seconds, rounds, results };
  writeFigures(log, 'static', figures);
}

runBenchmark(main, { processes: () => children, graceMs: 300, work }, log);
