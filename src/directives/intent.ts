// client:intent — hydrate an island when the visitor starts to use it: the
// pointer comes over it, a finger or a key goes down in it, or focus enters it.
// Until then the server-rendered HTML is the island: a plain form that posts
// to the server. Visitors who never touch the form never download React, and
// what they type while it loads is kept, because every form island adopts the
// values already in its fields (docs/decisions/0016).
//
// client:intent="submit": the island says when it is live (an `island:live`
// event, src/lib/client/island.ts), and a form sent before then (a press on
// Submit before anything else, while React loads) is held and sent again
// through the island, which checks it in place instead of the browser posting
// it to the server's page. Without JavaScript the form posts as ever.
//
// client:intent="member": the same, and for a signed-in visitor the island
// hydrates at once: their page loads React for the account menu anyway
// (client:signedin), and the booking form then shows their name and address
// before they start. Other islands (the open-time picker) still wait for use.
import type { ClientDirective } from 'astro';

const EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input'] as const;
/** How long a held form waits for its island before it is sent the plain way after all. */
const HOLD_MS = 8000;

const intent: ClientDirective = (load, options, el) => {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const name of EVENTS) el.removeEventListener(name, start);
    void load().then((hydrate) => hydrate());
  };

  if (options.value === 'submit' || options.value === 'member') {
    let live = false;
    let held: { form: HTMLFormElement; submitter: HTMLElement | null } | null = null;
    const release = () => {
      el.removeEventListener('submit', hold, true);
      const form = held;
      held = null;
      if (form?.form.isConnected) form.form.requestSubmit(form.submitter?.isConnected && form.submitter.matches('button, input') ? form.submitter : null);
    };
    const hold = (event: Event) => {
      if (live || !(event.target instanceof HTMLFormElement)) return;
      event.preventDefault();
      held = { form: event.target, submitter: (event as SubmitEvent).submitter };
      start();
      // An island that never says it is live (its script failed) must not keep the form.
      setTimeout(() => {
        live = true;
        release();
      }, HOLD_MS);
    };
    el.addEventListener('submit', hold, true);
    el.addEventListener(
      'island:live',
      () => {
        live = true;
        release();
      },
      { once: true },
    );
  }

  if (options.value === 'member' && /(?:^|;\s*)signed_in=1(?:;|$)/.test(document.cookie)) return start();
  for (const name of EVENTS) el.addEventListener(name, start, { passive: true });
  // Focus may already be inside (autofocus, or a visitor quicker than the parser).
  if (el.contains(document.activeElement)) start();
};

export default intent;

declare module 'astro' {
  interface AstroClientDirectives {
    /**
     * Hydrate on the first sign of use: pointer over, touch, key, focus or input inside the island.
     * "submit": hold a form sent before the island is live; "member": that, and hydrate at once for a signed-in visitor.
     */
    'client:intent'?: boolean | 'submit' | 'member';
  }
}
