import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';

/** Registers client:signedin (src/directives/signed-in.ts). */
export default function signedInDirective(): AstroIntegration {
  return {
    name: 'signed-in-directive',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'signedin', entrypoint: fileURLToPath(new URL('../directives/signed-in.ts', import.meta.url)) });
      },
    },
  };
}
