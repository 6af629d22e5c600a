import type { AstroCookies } from 'astro';
import { clearSessionCookie } from './auth.ts';
import { invalidateSession } from './sessions.ts';

/** Ends the current session: the row goes, so the token is dead even if kept. */
export function signOut(context: { locals: App.Locals; cookies: AstroCookies }): void {
  if (context.locals.session) invalidateSession(context.locals.session.id);
  clearSessionCookie(context.cookies);
  context.locals.user = null;
  context.locals.session = null;
}
