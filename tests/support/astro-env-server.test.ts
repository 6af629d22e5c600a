import { describe, expect, it } from 'vitest';
import { settings } from '#server/env.ts';
import * as astroEnv from './astro-env-server.ts';

describe("unit tests' astro:env/server", () => {
  it('exports every server setting of the table, and nothing the table does not have', () => {
    const server = Object.entries(settings)
      .filter(([, s]) => 'astro' in s && s.astro.context === 'server')
      .map(([name]) => name)
      .sort();
    const exported = Object.keys(astroEnv)
      .filter((name) => name !== 'getSecret')
      .sort();
    expect(exported).toEqual(server);
  });

  it("reads this test worker's own environment (tests/unit-database.ts names its database)", () => {
    expect(astroEnv.DATABASE_PATH).toBe(process.env.DATABASE_PATH);
    expect(astroEnv.DATABASE_PATH).toMatch(/medspa-unit-.*\/worker-.*\/site\.db$/);
  });
});
