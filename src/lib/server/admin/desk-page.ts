// The opening every /admin page shares, as editableSpaPage is the owner
// pages': who is signed in and whether they may see the desk (with the
// page's status set), the page's form post run only for an editor, and the
// notice or refusal AdminFrame shows. A page then says only what is its own:
// its notices, what its form does, and what it lists.
import type { AstroGlobal } from 'astro';
import type { SessionUser } from '../auth/sessions.ts';
import { getUser } from '../auth/auth.ts';
import { formRefusal, handleForm, noticeOf, type FormRefusal } from '../forms.ts';
import { publicOrigin } from '../http.ts';
import { ADMIN_NOTICES, adminAccess, handleAdminAction, type AdminActionResult } from './admin.ts';

export type DeskAccess = ReturnType<typeof adminAccess>;

export interface DeskPage<V> {
  /** The editor the page is for; null when the visitor is shown the sign-in or not-found page instead. */
  editor: SessionUser | null;
  /** AdminFrame's props but the title and current tab, to spread into it. */
  frame: { access: DeskAccess; user: SessionUser | null; notice: string | null; error: string | null };
  /** The refused post, rendered in place; null when nothing was posted or refused. */
  refusal: FormRefusal<V> | null;
}

export interface DeskPageOptions<V> {
  /** The notices a redirect may name in `?done=`. */
  notices?: Record<string, string>;
  /** What the page's form does, for an editor only: the redirect after a success, or the refusal. */
  act?: (form: URLSearchParams, editor: SessionUser) => Response | FormRefusal<V> | Promise<Response | FormRefusal<V>>;
}

/**
 * 401 for a signed-out visitor, 404 for anyone but an editor (so the desk is
 * not advertised); answers the redirect a successful post asks for, else the
 * page's state. The frame's error is the refusal's message for the form as a
 * whole (`_`).
 */
export async function deskPage<V = Record<string, string>>(
  page: Pick<AstroGlobal, 'locals' | 'request' | 'response' | 'url'>,
  { notices = {}, act }: DeskPageOptions<V> = {},
): Promise<Response | DeskPage<V>> {
  const user = getUser(page);
  const access = adminAccess(user);
  if (access === 'sign-in') page.response.status = 401;
  if (access === 'not-found') page.response.status = 404;
  const editor = access === 'ok' ? user : null;
  const answer = editor && act ? await handleForm<V>(page, (form) => act(form, editor)) : null;
  if (answer instanceof Response) return answer;
  return {
    editor,
    frame: { access, user, notice: noticeOf(page.request, page.url, notices), error: answer?.errors._ ?? null },
    refusal: answer,
  };
}

/**
 * The options of a page whose forms post the desk's actions (admin.ts's
 * handleAdminAction: listings, publishing, bookings and leads), which differ
 * only in where a success goes back to.
 */
export function adminActionsPage(back: (done: Extract<AdminActionResult, { ok: true }>['value']) => Response): DeskPageOptions<Record<string, string>> {
  return {
    notices: ADMIN_NOTICES,
    act: (form, editor) => {
      const result = handleAdminAction(form, editor, publicOrigin);
      return result.ok ? back(result.value) : formRefusal<Record<string, string>>(result, undefined, { _: result.message });
    },
  };
}
