// client:toast — hydrate the notification region only when the first toast is
// shown (src/lib/client/toasts.ts announces it with a `toasts:shown` event).
// Toasts come from islands that have already loaded React, so a page whose
// form nobody touches ships no React for its Toaster. The Toaster reads the
// shared store when it mounts, so the toast that woke it is shown.
import type { ClientDirective } from 'astro';

const onToast: ClientDirective = (load) => {
  const wake = () => void load().then((hydrate) => hydrate());
  // A toast shown before this ran (a page script that was quicker) left its mark.
  if ('toastShown' in document.documentElement.dataset) wake();
  else window.addEventListener('toasts:shown', wake, { once: true });
};

export default onToast;

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate when the first toast is shown. */
    'client:toast'?: boolean;
  }
}
