// Lets the end-to-end tests load the project's server modules (their fixtures,
// ./fixtures.ts, arrange state through them): `astro:env/server`, which only
// Astro's build and dev server know, resolves to the tests' own module
// (./astro-env-server.ts), reading this process's environment. The Playwright
// configurations import this file, in the runner and in every worker.
import { registerHooks } from 'node:module';

const astroEnvServer = new URL('./astro-env-server.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'astro:env/server') return { url: astroEnvServer, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
