import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { $toasts, dismiss, runToastAction, setToasterReady, setToastsPaused, type Toast } from '#lib/client/toasts.ts';

/** Spec 9: a swipe to the right of more than 50 px dismisses. */
const SWIPE_THRESHOLD = 50;
/** Movement below this is a tap, so the close button still gets its click. */
const DRAG_START = 4;

// Renders the shared toast store (src/lib/client/toasts.ts). One per page.
// Bottom-right, at most 420px wide from md up, full width on phones. F8 moves
// focus to the notifications; the clock stops while they are hovered or focused.
export default function Toaster() {
  const stored = useStore($toasts);
  // The first render must match the server's (an empty region): the toast that
  // woke this island (client:toast) is already in the store when it hydrates,
  // and rendering it at once was React's hydration error #418 (issue 26). It
  // shows on the render right after.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const toasts = hydrated ? stored : [];
  const regionRef = useRef<HTMLElement>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);

  useEffect(() => setToastsPaused(hovered || focused), [hovered, focused]);
  // Toasts shown before this region hydrated start their clocks only now.
  useEffect(() => setToasterReady(), []);

  // A toast that leaves from under the pointer fires no pointerleave.
  useEffect(() => {
    if (toasts.length === 0) setHovered(false);
  }, [toasts.length]);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'F8' || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      regionRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      setToastsPaused(false);
    };
  }, []);

  function close(id: string) {
    // Keep keyboard focus in the region instead of letting it fall to <body>.
    if (regionRef.current?.contains(document.activeElement)) regionRef.current.focus();
    dismiss(id);
  }

  function act(id: string) {
    // The action usually moves on (Retry submits the form again): let focus
    // go back to the page rather than stay on a region that is emptying.
    if (regionRef.current?.contains(document.activeElement)) (document.activeElement as HTMLElement).blur();
    runToastAction(id);
  }

  return (
    <section
      ref={regionRef}
      aria-label="Notifications (F8)"
      tabIndex={-1}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] md:left-auto md:w-full md:max-w-[420px]"
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <ol className={`flex flex-col gap-2 ${toasts.length ? 'p-4' : ''}`}>
        {toasts.map((item) => (
          <ToastItem key={item.id} item={item} onClose={() => close(item.id)} onAction={() => act(item.id)} onHover={setHovered} />
        ))}
      </ol>
    </section>
  );
}

interface ItemProps {
  item: Toast;
  onClose: () => void;
  onAction: () => void;
  onHover: (hovered: boolean) => void;
}

function ToastItem({ item, onClose, onAction, onHover }: ItemProps) {
  const destructive = item.variant === 'destructive';
  // The live region is in the page one frame before its words, so screen
  // readers announce them (text inserted together with its region is often missed).
  const [ready, setReady] = useState(false);
  const [offset, setOffset] = useState(0);
  const drag = useRef<{ pointerId: number; startX: number; dragging: boolean } | null>(null);

  useEffect(() => {
    const frame = requestAnimationFrame(() => setReady(true));
    return () => cancelAnimationFrame(frame);
  }, []);

  function onPointerDown(event: PointerEvent<HTMLLIElement>) {
    if (event.button !== 0) return;
    drag.current = { pointerId: event.pointerId, startX: event.clientX, dragging: false };
  }

  function onPointerMove(event: PointerEvent<HTMLLIElement>) {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const delta = event.clientX - current.startX;
    if (!current.dragging) {
      if (Math.abs(delta) < DRAG_START) return;
      // Captured only once it is a drag: capturing on pointerdown would steal the close button's click.
      current.dragging = true;
      event.currentTarget.setPointerCapture(event.pointerId);
    }
    setOffset(Math.max(0, delta));
  }

  function onPointerEnd(event: PointerEvent<HTMLLIElement>) {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    if (event.type === 'pointerup' && event.clientX - current.startX > SWIPE_THRESHOLD) onClose();
    else setOffset(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLLIElement>) {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  }

  const swiping = offset > 0;
  return (
    <li
      data-variant={item.variant}
      className={`pointer-events-auto relative touch-pan-y rounded-2xl border shadow-[var(--shadow-lift)] select-none motion-safe:transition-[transform,opacity] motion-safe:duration-200 ${
        destructive ? 'border-danger-700/25 bg-danger-100' : 'border-stone bg-white'
      } ${ready ? '' : 'translate-y-2 opacity-0'} ${swiping ? 'motion-safe:transition-none' : ''}`}
      style={swiping ? { transform: `translateX(${offset}px)`, opacity: Math.max(0.2, 1 - offset / 200) } : undefined}
      onPointerEnter={() => onHover(true)}
      onPointerLeave={() => onHover(false)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onKeyDown={onKeyDown}
    >
      {/* The live region is inside the item (a list item cannot be a status) and
          leaves out the close button, so only the message is announced. */}
      <div
        role={destructive ? 'alert' : 'status'}
        aria-live={destructive ? 'assertive' : 'polite'}
        aria-atomic="true"
        className="flex items-start gap-3 p-4 pr-12"
      >
        {ready && (
          <>
            <span
              aria-hidden="true"
              className={`mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full ${destructive ? 'bg-danger-700 text-white' : 'bg-brand-50 text-brand-700'}`}
            >
              <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
                {destructive ? <path d="M12 7v6M12 17h.01" /> : <path d="M5 12.5l4.5 4.5L19 7.5" />}
              </svg>
            </span>
            <div className="min-w-0 flex-1">
              <p className={`text-sm font-semibold ${destructive ? 'text-danger-700' : 'text-ink'}`}>{item.title}</p>
              {item.description && <p className="mt-1 text-sm leading-relaxed text-ink">{item.description}</p>}
            </div>
          </>
        )}
      </div>
      {/* The action (spec 3) is a real button after the message, before Close in
          the tab order, so F8 then Tab reaches it first. */}
      {item.action && (
        <div className="-mt-1 flex justify-end px-4 pb-4">
          <button
            type="button"
            onClick={onAction}
            data-toast-action
            className={`inline-flex min-h-9 items-center rounded-full border px-4 text-sm font-semibold transition-colors ${
              destructive ? 'border-danger-700/40 bg-white text-danger-700 hover:bg-white/70' : 'border-stone bg-white text-ink hover:bg-shell'
            }`}
          >
            {item.action.label}
          </button>
        </div>
      )}
      <button
        type="button"
        onClick={onClose}
        aria-label="Close notification"
        className={`absolute top-2.5 right-2.5 flex size-9 items-center justify-center rounded-full transition-colors ${
          destructive ? 'text-danger-700 hover:bg-white/70' : 'text-ink-muted hover:bg-shell hover:text-ink'
        }`}
      >
        <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      </button>
    </li>
  );
}
