import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toasts, dismiss, runToastAction, setToastsPaused, toast, TOAST_DURATION_MS } from './toasts.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  setToastsPaused(false);
  dismiss();
  vi.useRealTimers();
});

const titles = () => $toasts.get().map((item) => item.title);

describe('toasts', () => {
  it('shows a toast with its defaults and returns its id', () => {
    const id = toast({ title: 'Magic Link Sent!', description: 'Check your email.' });
    expect($toasts.get()).toEqual([{ id, title: 'Magic Link Sent!', description: 'Check your email.', variant: 'default', duration: TOAST_DURATION_MS }]);
  });

  it('keeps the destructive variant and leaves out an empty description', () => {
    toast({ title: 'Error', variant: 'destructive' });
    expect($toasts.get()[0]).toMatchObject({ title: 'Error', variant: 'destructive' });
    expect($toasts.get()[0]).not.toHaveProperty('description');
  });

  it('shows at most one toast: a new one replaces the old', () => {
    const first = toast({ title: 'First' });
    const second = toast({ title: 'Second' });
    expect(second).not.toBe(first);
    expect(titles()).toEqual(['Second']);
  });

  it('closes by itself after 5000 ms by default', () => {
    toast({ title: 'Bye' });
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(titles()).toEqual(['Bye']);
    vi.advanceTimersByTime(1);
    expect(titles()).toEqual([]);
  });

  it('honours its own duration, and Infinity keeps it open', () => {
    toast({ title: 'Quick', duration: 1000 });
    vi.advanceTimersByTime(1000);
    expect(titles()).toEqual([]);
    toast({ title: 'Sticky', duration: Infinity });
    vi.advanceTimersByTime(10 * 60_000);
    expect(titles()).toEqual(['Sticky']);
  });

  it("a replaced toast's timer does not close its successor", () => {
    toast({ title: 'Old', duration: 1000 });
    vi.advanceTimersByTime(900);
    toast({ title: 'New' });
    vi.advanceTimersByTime(200);
    expect(titles()).toEqual(['New']);
    vi.advanceTimersByTime(TOAST_DURATION_MS);
    expect(titles()).toEqual([]);
  });

  it('dismiss closes the toast by id and ignores unknown ids', () => {
    const id = toast({ title: 'Hello' });
    const before = $toasts.get();
    dismiss('toast-unknown');
    expect($toasts.get()).toBe(before);
    dismiss(id);
    expect(titles()).toEqual([]);
  });

  it('dismiss without an id closes everything', () => {
    toast({ title: 'One' });
    dismiss();
    expect(titles()).toEqual([]);
  });

  it('pausing stops the clock and resuming continues with the time that was left', () => {
    toast({ title: 'Read me', duration: 5000 });
    vi.advanceTimersByTime(3000);
    setToastsPaused(true);
    vi.advanceTimersByTime(60_000);
    expect(titles()).toEqual(['Read me']);
    setToastsPaused(false);
    vi.advanceTimersByTime(1999);
    expect(titles()).toEqual(['Read me']);
    vi.advanceTimersByTime(1);
    expect(titles()).toEqual([]);
  });

  it('a toast that arrives while paused waits for the pause to end', () => {
    setToastsPaused(true);
    toast({ title: 'Waiting', duration: 1000 });
    vi.advanceTimersByTime(5000);
    expect(titles()).toEqual(['Waiting']);
    setToastsPaused(false);
    vi.advanceTimersByTime(1000);
    expect(titles()).toEqual([]);
  });

  it('notifies subscribers of every change', () => {
    const seen: number[] = [];
    const unsubscribe = $toasts.listen((list) => seen.push(list.length));
    const id = toast({ title: 'A' });
    toast({ title: 'B' });
    dismiss(id); // already replaced: no change
    vi.advanceTimersByTime(TOAST_DURATION_MS);
    unsubscribe();
    expect(seen).toEqual([1, 1, 0]);
  });
});

describe('toast actions (spec 3: a toast has id, title, description, action, variant)', () => {
  it('keeps the action, and pressing it runs it once and closes the toast', () => {
    const onAction = vi.fn();
    const id = toast({ title: 'Booking Failed', variant: 'destructive', action: { label: 'Retry', onAction } });
    expect($toasts.get()[0]).toMatchObject({ id, title: 'Booking Failed', action: { label: 'Retry' } });
    runToastAction(id);
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(titles()).toEqual([]);
    runToastAction(id); // gone: nothing runs again
    expect(onAction).toHaveBeenCalledTimes(1);
  });

  it('a toast without an action has none, and pressing nothing changes nothing', () => {
    const id = toast({ title: 'Plain' });
    expect($toasts.get()[0]).not.toHaveProperty('action');
    runToastAction(id);
    expect(titles()).toEqual(['Plain']);
  });
});

describe('afterToastShown: a page leaves only after its toast was seen', () => {
  // A browser's module: the Toaster is not mounted yet when the first toast arrives.
  async function inBrowser() {
    vi.useFakeTimers();
    vi.resetModules();
    vi.stubGlobal('document', {});
    return import('./toasts.ts');
  }
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('counts the pause from the moment the Toaster is on screen, once', async () => {
    const toasts = await inBrowser();
    const steps: string[] = [];
    toasts.afterToastShown(500, () => steps.push('left'));
    vi.advanceTimersByTime(1000);
    expect(steps).toEqual([]);
    toasts.setToasterReady();
    vi.advanceTimersByTime(499);
    expect(steps).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(steps).toEqual(['left']);
    vi.advanceTimersByTime(toasts.TOASTER_WAIT_LIMIT_MS);
    expect(steps).toEqual(['left']);
    toasts.afterToastShown(200, () => steps.push('again'));
    vi.advanceTimersByTime(200);
    expect(steps).toEqual(['left', 'again']);
  });

  it('goes on without a Toaster that never mounts', async () => {
    const toasts = await inBrowser();
    const steps: string[] = [];
    toasts.afterToastShown(500, () => steps.push('left'));
    vi.advanceTimersByTime(toasts.TOASTER_WAIT_LIMIT_MS + 499);
    expect(steps).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(steps).toEqual(['left']);
  });
});
