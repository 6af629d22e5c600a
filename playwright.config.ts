import { e2ePort as port, siteRunConfig } from '#tests/support/playwright-site.ts';

export default siteRunConfig({
  testDir: 'tests/e2e',
  // One folder per port, so runs side by side do not delete each other's artifacts.
  outputDir: `test-results/${port}`,
  dirPrefix: 'medspa-e2e-',
  command: 'node tests/support/e2e-server.ts',
  // tests/support/site.ts sets the rest: the tests' own ANALYTICS_SALT (they clear the limits of
  // 127.0.0.1 between tests) and no publishing on change (tests run `npm run rebuild` themselves;
  // admin.spec.ts starts a server of its own with it on).
  extraEnv: {
    // Social cards ask a local oEmbed stand-in (tests/e2e/photos.spec.ts starts it on the next port).
    OEMBED_ENDPOINTS: `youtube=http://127.0.0.1:${port + 1}/oembed,tiktok=http://127.0.0.1:${port + 1}/oembed`,
    OEMBED_ALLOW_LOOPBACK: 'on',
  },
});
