// The one toast system every island shares. Islands are separate React roots,
// but they import this same module, so one store serves the whole page; the
// Toaster island renders it. Timers live here, not in React, so the rules
// (spec 9: one toast at a time, 5 s by default, paused while the reader is on
// it) hold however many islands call toast() and are testable without a DOM.
import { atom } from 'nanostores';

export type ToastVariant = 'default' | 'destructive';

/** One step the toast offers (spec 3, Toast message: action), e.g. Retry. */
export interface ToastAction {
  /** The button's words: a verb the reader understands without the toast ("Retry"). */
  label: string;
  /** Runs when the button is pressed; the toast then closes. */
  onAction: () => void;
}

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  action?: ToastAction;
  /** Milliseconds before it closes by itself; Infinity keeps it until dismissed. */
  duration?: number;
}

export interface Toast {
  id: string;
  title: string;
  description?: string;
  variant: ToastVariant;
  action?: ToastAction;
  duration: number;
}

/** Spec 9: at most one toast at a time; a new one replaces the old. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;

export const $toasts = atom<readonly Toast[]>([]);

interface Timer {
  handle: ReturnType<typeof setTimeout> | null;
  /** Time left when the timer is not running. */
  remaining: number;
  startedAt: number;
}

const timers = new Map<string, Timer>();
let paused = false;
let counter = 0;
/**
 * In a browser the clocks wait for a Toaster to be on screen: it may hydrate
 * only when the first toast arrives (client:toast), and on a slow phone that
 * can take seconds a toast should not spend unseen. Elsewhere (tests) no wait.
 */
let viewerReady = typeof document === 'undefined';

function start(id: string, timer: Timer) {
  if (paused || !viewerReady || timer.handle !== null || !Number.isFinite(timer.remaining)) return;
  timer.startedAt = Date.now();
  timer.handle = setTimeout(() => dismiss(id), Math.max(0, timer.remaining));
}

function stop(timer: Timer) {
  if (timer.handle === null) return;
  clearTimeout(timer.handle);
  timer.handle = null;
  timer.remaining -= Date.now() - timer.startedAt;
}

/** Shows a toast (replacing the one on screen) and returns its id. */
export function toast({ title, description, variant = 'default', action, duration = TOAST_DURATION_MS }: ToastInput): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = `toast-${counter}`;
  const item: Toast = { id, title, variant, duration, ...(description ? { description } : {}), ...(action ? { action } : {}) };
  const kept = [item, ...$toasts.get()].slice(0, TOAST_LIMIT);
  for (const old of $toasts.get()) if (!kept.includes(old)) forget(old.id);
  $toasts.set(kept);
  const timer: Timer = { handle: null, remaining: duration, startedAt: 0 };
  timers.set(id, timer);
  start(id, timer);
  // The page's Toaster may wait for its first toast to hydrate (client:toast).
  // The mark on <html> tells a Toaster that starts listening later.
  if (typeof window !== 'undefined') {
    document.documentElement.dataset.toastShown = '';
    window.dispatchEvent(new Event('toasts:shown'));
  }
  return id;
}

/** Presses a toast's action: runs it and closes the toast. Unknown ids and toasts without one are ignored. */
export function runToastAction(id: string): void {
  const item = $toasts.get().find((candidate) => candidate.id === id);
  if (!item?.action) return;
  dismiss(id);
  item.action.onAction();
}

function forget(id: string) {
  const timer = timers.get(id);
  if (timer?.handle) clearTimeout(timer.handle);
  timers.delete(id);
}

/** Closes one toast, or every toast when no id is given. Unknown ids are ignored. */
export function dismiss(id?: string): void {
  const current = $toasts.get();
  const left = id === undefined ? [] : current.filter((item) => item.id !== id);
  if (left.length === current.length) return;
  for (const item of current) if (!left.includes(item)) forget(item.id);
  $toasts.set(left);
}

const waitingForViewer: (() => void)[] = [];

/** The Toaster is mounted: toasts waiting for it start their clocks now. */
export function setToasterReady(): void {
  viewerReady = true;
  for (const [id, timer] of timers) start(id, timer);
  for (const run of waitingForViewer.splice(0)) run();
}

/** Longest wait for a Toaster that never mounts (its script failed): the step after the toast still happens. */
export const TOASTER_WAIT_LIMIT_MS = 3000;

/**
 * Runs `then` once the toast has been on screen for `ms`: a page that leaves
 * after a toast ("Logging in again...") must not leave before the Toaster has
 * hydrated and shown it, which on a slow phone takes longer than the pause.
 */
export function afterToastShown(ms: number, then: () => void): void {
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    setTimeout(then, ms);
  };
  if (viewerReady) return go();
  waitingForViewer.push(go);
  setTimeout(go, TOASTER_WAIT_LIMIT_MS);
}

/**
 * Stops or restarts the clocks: the Toaster pauses them while the pointer is
 * over the notifications or focus is inside them, so nobody loses a message
 * they are reading. A toast that arrives meanwhile waits too.
 */
export function setToastsPaused(value: boolean): void {
  if (paused === value) return;
  paused = value;
  for (const [id, timer] of timers) {
    if (paused) stop(timer);
    else start(id, timer);
  }
}
