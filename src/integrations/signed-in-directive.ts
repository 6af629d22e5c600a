import type { AstroIntegration } from 'astro';
import { clientDirectives } from './island-directives.ts';

/** Registers client:signedin (src/directives/signed-in.ts). */
export default function signedInDirective(): AstroIntegration {
  return clientDirectives('signed-in-directive', { signedin: 'signed-in.ts' });
}
