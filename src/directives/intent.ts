// client:intent — hydrate an island when the visitor starts to use it: the
// pointer comes over it, a finger or a key goes down in it, or focus enters it.
// Until then the server-rendered HTML is the island: a plain form that posts
// to the server. Visitors who never touch the form never download React, and
// what they type while it loads is kept, because every form island adopts the
// values already in its fields (docs/decisions/0016).
import type { ClientDirective } from 'astro';

const EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input'] as const;

const intent: ClientDirective = (load, _options, el) => {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const name of EVENTS) el.removeEventListener(name, start);
    void load().then((hydrate) => hydrate());
  };
  for (const name of EVENTS) el.addEventListener(name, start, { passive: true });
  // Focus may already be inside (autofocus, or a visitor quicker than the parser).
  if (el.contains(document.activeElement)) start();
};

export default intent;

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the first sign of use: pointer over, touch, key, focus or input inside the island. */
    'client:intent'?: boolean;
  }
}
