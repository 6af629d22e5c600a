import eslintPluginAstro from 'eslint-plugin-astro';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Which way imports may point (docs/decisions/0002). Each area's list is whole:
// a later block for the same files replaces an earlier one's list. Patterns
// are regular expressions: in the glob form a leading '#' is a comment.
const noClimbing = { regex: '^(\\.\\./){3,}', message: 'Import through a #alias (package.json "imports") instead of climbing more than two folders.' };
const siteMayNotImport = {
  regex: '^#(server|scripts|tests)/',
  message: 'src/ is the site: it may not import the production server (server/), developer scripts or test support.',
};
const islandsMayNotImport = {
  regex: '^(#lib/server/|(\\.\\./)+lib/server/|astro:env/server$|#db/)',
  message: 'Islands run in the browser: no server modules, no database, no server-side settings (secrets).',
};
const dbMayNotImport = {
  regex: '^(#lib/server/|#server/|(\\.\\./)+src/lib/server/)',
  message: "db/ is below the site: it may not import the site's server modules or the production server.",
};
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default defineConfig(
  { ignores: ['dist/', 'data/', '.astro/', '.tools/', 'node_modules/', 'test-results/', 'playwright-report/', 'public/'] },
  tseslint.configs.recommended,
  eslintPluginAstro.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      ...restrict(noClimbing),
    },
  },
  // Tests beside the code may use test support (tests/support) and scripts' fixtures.
  { files: ['src/**/*.{ts,tsx,astro}'], ignores: ['src/**/*.test.ts'], rules: restrict(noClimbing, siteMayNotImport) },
  { files: ['src/components/islands/**', 'src/directives/**'], rules: restrict(noClimbing, siteMayNotImport, islandsMayNotImport) },
  { files: ['db/**/*.ts'], rules: restrict(noClimbing, dbMayNotImport) },
);
