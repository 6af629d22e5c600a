// client:signedin — hydrate an island only for visitors who are signed in.
// The pre-rendered pages are the same for everyone; a signed-out visitor (most
// of them) downloads no React for the navigation. The session cookie is
// HttpOnly, so sign-in also sets a harmless `signed_in=1` hint cookie for this
// check; the island still asks the server who the user is.
import type { ClientDirective } from 'astro';
import { hasSignedInHint } from '#lib/session-cookie.ts';

const signedIn: ClientDirective = (load) => {
  if (!hasSignedInHint(document.cookie)) return;
  void load().then((hydrate) => hydrate());
};

export default signedIn;

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate only when the signed-in hint cookie is present. */
    'client:signedin'?: boolean;
  }
}
