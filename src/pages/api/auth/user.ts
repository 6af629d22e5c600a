import type { APIRoute } from 'astro';
import { forgetSignedInHint, requireApiUser } from '#lib/server/auth/auth.ts';
import { json } from '#lib/server/http.ts';
import { fullName, initials } from '#lib/initials.ts';

export const prerender = false;

export const GET: APIRoute = (context) => {
  const user = requireApiUser(context);
  if (user instanceof Response) {
    // The menus ask only when the signed-in hint is there; a stale hint (the
    // session expired or was ended elsewhere) is forgotten here, so the next
    // page does not ask again.
    forgetSignedInHint(context.cookies);
    return user;
  }
  const { id, email, firstName, lastName, profileImageUrl, role } = user;
  // The role too: the account menus lead owners and editors to their own pages.
  // The avatar's initials and the full name (spec 2) are worked out here, so
  // the menus' browser code carries no copy of the rule.
  return json({ id, email, firstName, lastName, profileImageUrl, role, initials: initials(user), name: fullName(user) });
};
