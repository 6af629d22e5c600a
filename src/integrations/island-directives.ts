import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';

/** Registers client:intent (src/directives/intent.ts) and client:toast (src/directives/toast.ts). */
export default function islandDirectives(): AstroIntegration {
  return {
    name: 'island-directives',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'intent', entrypoint: fileURLToPath(new URL('../directives/intent.ts', import.meta.url)) });
        addClientDirective({ name: 'toast', entrypoint: fileURLToPath(new URL('../directives/toast.ts', import.meta.url)) });
      },
    },
  };
}
