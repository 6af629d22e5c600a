import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { $user, loadUser, type NavUser } from '#lib/client/user.ts';
import { roleLinks } from '#lib/role-links.ts';

// The navigation's account corner (spec 2) for signed-in visitors. The corner
// itself is in the header, pre-rendered signed out (Sign In, Book Now:
// SiteNav.astro); this island sits at the foot of the page (Layout.astro says
// why), hydrates only with the signed-in hint (client:signedin), and draws
// into the corner: a pulsing placeholder while the user is looked up, then
// the avatar menu, or the links again when the lookup says signed out.
export default function UserNav() {
  const [corner, setCorner] = useState<HTMLElement | null>(null);
  const state = useStore($user);
  const signedOut = !corner || state.status === 'signed-out';

  useEffect(() => {
    setCorner(document.querySelector<HTMLElement>('[data-account-corner]'));
    loadUser();
  }, []);

  useEffect(() => {
    corner?.querySelector('[data-account-signed-out]')?.toggleAttribute('hidden', !signedOut);
  }, [corner, signedOut]);

  if (signedOut) return null;
  return createPortal(
    state.status === 'loading' ? (
      <span className="block size-10 animate-pulse rounded-full bg-stone" data-testid="avatar-placeholder" aria-label="Loading your account" role="img" />
    ) : (
      <AvatarMenu user={state.user} />
    ),
    corner,
  );
}

export function Avatar({ user }: { user: NavUser }) {
  const [broken, setBroken] = useState(false);
  if (user.profileImageUrl && !broken) {
    return <img src={user.profileImageUrl} alt="" width={40} height={40} className="size-10 rounded-full object-cover" onError={() => setBroken(true)} />;
  }
  return (
    <span
      aria-hidden="true"
      className="grid size-10 place-items-center rounded-full bg-brand-700 text-sm font-semibold text-white"
      data-testid="avatar-initials"
    >
      {user.initials}
    </span>
  );
}

function AvatarMenu({ user }: { user: NavUser }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const { name } = user;

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node) && !buttonRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const onMenuKey = (event: KeyboardEvent) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(list.length - 1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
    }
  };

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        className="rounded-full"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Avatar user={user} />
        {/* The name comes from this text, not aria-label: axe (label-content-name-mismatch) wants the visible initials inside an aria-label, and initials are not words. */}
        <span className="sr-only">Account menu for {name ?? user.email}</span>
      </button>
      {open && (
        <div ref={menuRef} id={menuId} role="menu" aria-label="Account" onKeyDown={onMenuKey} className="card absolute right-0 mt-2 w-64 p-2">
          <div className="border-b border-stone px-3 py-2">
            {name && <p className="font-medium text-ink">{name}</p>}
            <p className="truncate text-sm text-ink-muted">{user.email}</p>
          </div>
          <a role="menuitem" href="/" className="block rounded-lg px-3 py-2 text-ink hover:bg-shell focus:bg-shell">
            Dashboard
          </a>
          {roleLinks(user.role).map((link) => (
            <a key={link.href} role="menuitem" href={link.href} className="block rounded-lg px-3 py-2 text-ink hover:bg-shell focus:bg-shell">
              {link.label}
            </a>
          ))}
          <a role="menuitem" href="/services" className="block rounded-lg px-3 py-2 text-ink hover:bg-shell focus:bg-shell">
            Services
          </a>
          {/* Signing out is a POST: a plain link could be fired from any site. */}
          <form method="post" action="/api/logout" role="none">
            <button
              type="submit"
              role="menuitem"
              className="block w-full rounded-lg px-3 py-2 text-left text-ink hover:bg-shell focus:bg-shell"
              data-analytics-action="sign_out_clicked"
              data-analytics-category="auth"
            >
              Sign Out
            </button>
            <button
              type="submit"
              name="scope"
              value="everywhere"
              role="menuitem"
              className="block w-full rounded-lg px-3 py-2 text-left text-sm text-ink-muted hover:bg-shell focus:bg-shell"
            >
              Sign out everywhere
            </button>
          </form>
        </div>
      )}
    </div>
  );
}
