// What the form islands do once they are live: tell the client:intent
// directive so (a form sent while the island loaded is sent again through it,
// src/directives/intent.ts), and fill a signed-in member's name and e-mail
// into a booking form's empty fields.
import { $user, loadUser } from './user.ts';

/** The event client:intent waits for before it sends a held form again. */
export const ISLAND_LIVE_EVENT = 'island:live';

/** Says that the island holding `node` handles its forms now. */
export function announceLive(node: Element | null): void {
  node?.closest('astro-island')?.dispatchEvent(new Event(ISLAND_LIVE_EVENT));
}

const signedInHint = () => /(?:^|;\s*)signed_in=1(?:;|$)/.test(document.cookie);

/**
 * Fills the member's name and e-mail into the form's `name` and `email`
 * fields where they are still empty, and makes them the fields' defaults, so
 * a reset after sending keeps them. Never writes over what someone typed.
 * Returns the unsubscribe.
 */
export function prefillMember(form: HTMLFormElement | null): () => void {
  if (!form || !signedInHint()) return () => {};
  loadUser();
  return $user.subscribe((state) => {
    if (state.status !== 'signed-in') return;
    const { user } = state;
    const values = { name: [user.firstName, user.lastName].filter(Boolean).join(' '), email: user.email };
    for (const [name, value] of Object.entries(values)) {
      const input = form.elements.namedItem(name);
      if (!(input instanceof HTMLInputElement) || input.value !== '' || !value) continue;
      input.value = value;
      input.defaultValue = value;
    }
  });
}
