// The README is what a newcomer reads first, in a clone that has nothing
// beside it: every path it names must be inside the repository, and the
// product description it sends them to must cover the rules that matter.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');

describe('README', () => {
  it('names no path outside the repository', () => {
    const outside = [...readme.matchAll(/\.\.\/[\w./-]+/g)].map((match) => match[0]);
    expect(outside).toEqual([]);
  });

  it('links only to files that exist', () => {
    const links = [...readme.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!).filter((href) => !/^[a-z]+:/.test(href));
    expect(links).toContain('docs/product.md');
    for (const link of links) expect(existsSync(link), link).toBe(true);
  });
});

describe('docs/product.md', () => {
  const product = readFileSync('docs/product.md', 'utf8');

  it('describes routes, roles, tiers, the lifecycles, the Elite cap and the rendering model', () => {
    for (const heading of ['## Routes', '## Who uses it', '## Listing tiers', '## Bookings and leads', '## Rendering model']) {
      expect(product, heading).toContain(heading);
    }
    expect(product).toContain('pending -> confirmed -> completed');
    expect(product).toContain('new -> contacted -> converted');
    expect(product).toMatch(/At most 3 active Elite spas per city/);
    expect(product).toContain('$97 a month');
    expect(product).toContain('$197 a month');
  });
});
