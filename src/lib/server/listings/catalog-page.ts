// What an owner's catalogue page (services, offers) does before it renders.
// Each lists the spa's items beside one form that adds a new item, or edits
// the one named by ?edit=, and each answers a post the same way: a saved
// change or an action on a row (end an offer, deactivate a service) redirects
// back with its notice (post/redirect/get); a refused one renders the form
// again with the typed values; an item that is not the spa's is a bare 404.
import type { AstroGlobal } from 'astro';
import { parseId } from '#lib/ids.ts';
import { editableSpaPage } from '#lib/server/auth/auth.ts';
import type { Result } from '#lib/result.ts';
import { formRefusal, handleForm, noticeOf, notFoundPage, seeOther } from '#lib/server/forms.ts';

/** A kind of item, as its page names it: in ids ("offer"), in the address ("offers"), in a sentence ("an offer"). */
export interface CatalogKind {
  one: string;
  many: string;
  article: 'a' | 'an';
}

interface CatalogPage<Item, V, A extends Record<string, string>> {
  kind: CatalogKind;
  /** Who shows a saved change, and how soon, for the notices after adding and saving ("The public pages show"). */
  shownBy: string;
  /** The notices of the rows' actions, by the key `act` answers; `listed` tells whether the listing is public at all. */
  actions: (listed: boolean) => A;
  find: (spaId: number, id: number | null) => Item | null;
  /** A row's action (an intent other than saving): its notice, or false when the item is not the spa's; undefined when the intent is no action. */
  act: (spaId: number, id: number | null, intent: string | null) => keyof A | false | undefined;
  save: (spaId: number, id: number | null, form: URLSearchParams) => Result<unknown>;
  /** What was typed into the form, to show again when a save is refused. */
  typed: (form: URLSearchParams) => V;
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Where a listing that is not public yet (awaiting review, or withdrawn) shows a change: nowhere until it is listed. */
export const UNLISTED_CHANGE = 'It shows on your public page once your listing is listed.';

/**
 * The notices after adding or saving an item, and the rows' own: a listed
 * spa's change is public within a minute; an unlisted one's is not public at
 * all yet, and the notice must not promise it (issue 26).
 */
export function catalogNotices<A extends Record<string, string>>(kind: CatalogKind, shownBy: string, listed: boolean, actions: A) {
  const kindName = capitalized(kind.one);
  return {
    added: `${kindName} added. ${listed ? `${shownBy} it within a minute.` : UNLISTED_CHANGE}`,
    saved: `${kindName} saved. ${listed ? `${shownBy} the change within a minute.` : UNLISTED_CHANGE}`,
    ...actions,
  };
}

export async function catalogPage<Item, V, A extends Record<string, string>>(page: AstroGlobal, spec: CatalogPage<Item, V, A>) {
  const { user, spa, loginUrl } = editableSpaPage(page);
  if (user && !spa) return notFoundPage();

  let editingId = parseId(page.url.searchParams.get('edit'));
  const answer = spa
    ? await handleForm<V>(page, (form) => {
        const path = `/owner/spas/${spa.id}/${spec.kind.many}`;
        const named = Boolean(form.get('id'));
        const id = parseId(form.get('id'));
        if (named && id === null) return notFoundPage();
        const acted = spec.act(spa.id, id, form.get('intent'));
        if (acted !== undefined) return acted === false ? notFoundPage() : seeOther(path, String(acted));
        const result = spec.save(spa.id, id, form);
        if (result.ok) return seeOther(path, named ? 'saved' : 'added');
        if (result.reason === 'not_found') return notFoundPage();
        editingId = id;
        return formRefusal(result, spec.typed(form));
      })
    : null;
  if (answer instanceof Response) return answer;

  const editing = spa ? spec.find(spa.id, editingId) : null;
  if (spa && editingId !== null && !editing && page.request.method === 'GET') return notFoundPage();
  return {
    user,
    spa,
    loginUrl,
    editing,
    errors: answer?.errors ?? {},
    /** What was typed into a refused form, to show again in place of the stored values. */
    typed: answer?.values ?? null,
    kind: spec.kind,
    notice: spa ? noticeOf(page.request, page.url, catalogNotices(spec.kind, spec.shownBy, spa.active, spec.actions(spa.active))) : null,
  };
}
