/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

// Unit tests live beside the code they test (src/**, db/**, server/**, scripts/**), and the test support's own in tests/support/.
// getViteConfig gives them Astro's virtual modules (astro:env) and aliases.
export default getViteConfig({
  test: {
    include: ['src/**/*.test.ts', 'db/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/support/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['./tests/unit-setup.ts'],
  },
});
