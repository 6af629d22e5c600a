// nginx in front of a test site, as production runs it (deploy/nginx/): the
// configuration server/nginx-config.ts writes, with this run's paths and
// ports, over TLS with a self-signed certificate made here (openssl), run
// unprivileged from a folder of its own. Used by tests/e2e/front-nginx.spec.ts
// and the static benchmark (scripts/bench-static.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { currentBuildDir } from '#lib/server/published-site.ts';
import { securityHeadersInclude, siteConfig, writePagePolicy } from '#server/nginx-config.ts';

/** Debian's module for brotli_static (libnginx-mod-http-brotli-static; scripts/bootstrap.sh installs it). */
const BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

export interface RunningNginx {
  origin: string;
  /** The master process (its workers are its children). */
  pid: number;
  /** The certificate to trust (NODE_EXTRA_CA_CERTS for a Node client). */
  certificate: string;
  accessLog: () => string;
  stop: () => Promise<void>;
}

/** Why nginx cannot run here, or null when it can. */
export function nginxMissing(): string | null {
  if (spawnSync('sh', ['-c', 'command -v nginx']).status !== 0) return 'nginx is not installed (scripts/bootstrap.sh installs nginx-light)';
  if (spawnSync('sh', ['-c', `test -f ${BROTLI_MODULE}`]).status !== 0)
    return 'libnginx-mod-http-brotli-static is not installed (scripts/bootstrap.sh installs it)';
  if (spawnSync('sh', ['-c', 'command -v openssl']).status !== 0) return 'openssl is not installed';
  return null;
}

/** A self-signed certificate for 127.0.0.1, for one run. */
export function selfSignedCertificate(dir: string): { certificate: string; key: string } {
  const certificate = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      certificate,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return { certificate, key };
}

/** The main configuration of an unprivileged nginx whose files all live in `dir`, around the site's own blocks. */
export function nginxMain(dir: string, site: string, { workers = 1 }: { workers?: number } = {}): string {
  return `# As root, the workers would run as nobody, who cannot read a test's folders.
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes ${workers};
# The front's locations and log maps are regular expressions (docs/deploy.md).
pcre_jit on;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
load_module ${BROTLI_MODULE};
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
${site}
}
`;
}

/** Starts nginx with `config` (a whole nginx.conf) and resolves once `origin` answers `readyPath` over TLS. */
export async function runNginx(dir: string, config: string, origin: string, certificate: string, readyPath = '/healthz'): Promise<RunningNginx> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config);
  const tested = spawnSync('nginx', ['-t', '-q', '-c', file], { encoding: 'utf8' });
  if (tested.status !== 0) throw new Error(`nginx refuses the configuration: ${tested.stderr}`);
  const child: ChildProcess = spawn('nginx', ['-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ca = readFileSync(certificate);
  const answers = () =>
    new Promise<boolean>((resolve) => {
      const req = request(`${origin}${readyPath}`, { ca }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('error', () => resolve(false));
      req.end();
    });
  const deadline = Date.now() + 20_000;
  while (!(await answers())) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${errors}`);
    if (Date.now() > deadline) throw new Error(`nginx did not answer at ${origin}: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    pid: child.pid!,
    certificate,
    accessLog: () => {
      try {
        return readFileSync(join(dir, 'access.log'), 'utf8');
      } catch {
        return '';
      }
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // QUIT: a graceful stop; nginx's workers finish what they send.
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * nginx in front of the site whose SITE_DIR is `siteDir` and whose Node
 * server listens on `upstreamPort`: listening on 127.0.0.1:`port` over TLS,
 * with the production configuration (deploy/nginx/) made for these paths.
 */
export async function startFront({
  dir,
  siteDir,
  siteUrl,
  port,
  upstreamPort,
  workers = 1,
}: {
  dir: string;
  siteDir: string;
  siteUrl: string;
  port: number;
  upstreamPort: number;
  workers?: number;
}): Promise<RunningNginx> {
  mkdirSync(dir, { recursive: true });
  const { certificate, key } = selfSignedCertificate(dir);
  // Written at publish; a site copied from another is written here.
  const served = currentBuildDir(siteDir);
  if (!served) throw new Error(`no published build in ${siteDir}`);
  writePagePolicy(siteDir, served);
  const securityHeaders = join(dir, 'security-headers.conf');
  writeFileSync(securityHeaders, securityHeadersInclude(siteUrl));
  const site = siteConfig({
    serverName: '127.0.0.1',
    siteUrl,
    siteDir,
    upstream: `127.0.0.1:${upstreamPort}`,
    listen: `127.0.0.1:${port}`,
    redirectHttpFrom: null,
    certificate,
    certificateKey: key,
    securityHeaders,
    accessLog: join(dir, 'access.log'),
    errorLog: join(dir, 'site-error.log'),
    cacheDir: join(dir, 'cache'),
  });
  return runNginx(dir, nginxMain(dir, site, { workers }), `https://127.0.0.1:${port}`, certificate);
}
