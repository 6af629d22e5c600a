import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';

/** An integration registering each client:<name> directive from its file in src/directives/. */
export function clientDirectives(integrationName: string, directives: Record<string, string>): AstroIntegration {
  return {
    name: integrationName,
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        for (const [name, file] of Object.entries(directives)) {
          addClientDirective({ name, entrypoint: fileURLToPath(new URL(`../directives/${file}`, import.meta.url)) });
        }
      },
    },
  };
}

/** Registers client:intent (src/directives/intent.ts) and client:toast (src/directives/toast.ts). */
export default function islandDirectives(): AstroIntegration {
  return clientDirectives('island-directives', { intent: 'intent.ts', toast: 'toast.ts' });
}
