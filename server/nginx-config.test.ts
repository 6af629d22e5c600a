import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT, LARGE_BODY_ROUTES, TOKEN_PATH_PREFIXES } from '#lib/front-routes.ts';
import { deployFiles, nginxPaths, pagePolicyInclude, PRODUCTION, securityHeadersInclude, siteConfig, writePagePolicy } from './nginx-config.ts';
import { securityHeadersFor } from './security-headers.ts';

describe("deploy/nginx/, nginx's configuration", () => {
  it('is what the tables say: run `npm run nginx:config` after changing them', () => {
    for (const [name, text] of Object.entries(deployFiles())) expect(readFileSync(join('deploy/nginx', name), 'utf8'), name).toBe(text);
  });

  it('sends the security headers of the table the Node server uses, on errors too', () => {
    const lines = securityHeadersInclude(PRODUCTION.siteUrl)
      .split('\n')
      .filter((line) => line.startsWith('add_header'));
    expect(lines).toEqual(Object.entries(securityHeadersFor(PRODUCTION.siteUrl)).map(([name, value]) => `add_header ${name} "${value}" always;`));
    expect(lines.join('\n')).toContain('Strict-Transport-Security');
  });

  it('caps bodies per route as the app does: 64 KB, and the photo upload’s 10 MB passed on unbuffered', () => {
    const config = siteConfig(PRODUCTION);
    expect(config).toContain(`client_max_body_size ${DEFAULT_BODY_LIMIT};`);
    for (const route of LARGE_BODY_ROUTES) {
      const block = config.slice(config.indexOf(`location ~ "${route.path}"`));
      expect(block.slice(0, block.indexOf('\n  }'))).toMatch(new RegExp(`client_max_body_size ${route.limit};[^}]*proxy_request_buffering off;`));
    }
  });

  it('logs no query string and no token', () => {
    const config = siteConfig(PRODUCTION);
    expect(config).toMatch(/log_format medspa [^\n]*"path":"\$medspa_log_path"/);
    expect(config).not.toMatch(/log_format[^\n]*\$(?:request_uri|request|args|query_string)\b/);
    for (const prefix of TOKEN_PATH_PREFIXES) expect(config).toContain(`"~^${prefix}" "${prefix}:token";`);
  });
});

describe("the pages' policy for nginx", () => {
  it('is the build’s one policy, rewritten only when it changes', () => {
    const site = mkdtempSync(join(tmpdir(), 'medspa-nginx-'));
    const build = join(site, 'builds', 'b1');
    mkdirSync(build, { recursive: true });
    const policy = "default-src 'self'; frame-ancestors 'none'";
    const headers = (value: string) => JSON.stringify(['/', '/spas/a'].map((pathname) => ({ pathname, headers: [{ key: 'Content-Security-Policy', value }] })));
    try {
      writeFileSync(join(build, '_headers.json'), headers(policy));
      expect(pagePolicyInclude(build)).toContain(`~^text/html "${policy}";`);
      expect(writePagePolicy(site, build)).toBe(true);
      expect(writePagePolicy(site, build)).toBe(false);
      expect(readFileSync(nginxPaths(site).pagePolicy, 'utf8')).toBe(pagePolicyInclude(build));
      writeFileSync(
        join(build, '_headers.json'),
        JSON.stringify([...JSON.parse(headers(policy)), { pathname: '/x', headers: [{ key: 'Content-Security-Policy', value: "default-src 'none'" }] }]),
      );
      expect(() => pagePolicyInclude(build)).toThrow(/2 different page policies/);
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });
});
