import { useEffect, useId, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { createPortal } from 'react-dom';
import { fullName } from '../../lib/initials.ts';
import { $user, loadUser } from '../../lib/client/user.ts';
import { Avatar } from './UserNav.tsx';

interface MenuLink {
  label: string;
  href: string;
  section?: string;
}

interface Props {
  links: MenuLink[];
  actions: { signIn: MenuLink; bookNow: MenuLink };
}

// The small-screen navigation: a right-side sheet. It is a modal dialog: focus
// moves in and is kept there, Escape or the backdrop closes it, and choosing any
// item closes it (spec 4, Mobile menu).
export default function MobileMenu({ links, actions }: Props) {
  const [open, setOpen] = useState(false);
  const account = useStore($user);
  const sheetId = useId();

  useEffect(() => {
    // Only visitors who signed in here ask who they are (see directives/signed-in.ts).
    if (/(?:^|;\s*)signed_in=1(?:;|$)/.test(document.cookie)) loadUser();
  }, []);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const sheetRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const sheet = sheetRef.current!;
    const focusable = () => Array.from(sheet.querySelectorAll<HTMLElement>('a[href], button:not([disabled])'));
    focusable()[0]?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';

    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        setOpen(false);
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusable();
      const first = items[0];
      const last = items[items.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      toggleRef.current?.focus();
    };
  }, [open]);

  const close = () => setOpen(false);

  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        className="btn-ghost -mr-2 px-3"
        aria-expanded={open}
        aria-controls={sheetId}
        aria-label="Open menu"
        onClick={() => setOpen(true)}
      >
        <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M4 7h16M4 12h16M4 17h16" />
        </svg>
      </button>
      {/* Portalled to <body>: the header's backdrop blur would otherwise become
          the containing block of this fixed layer and clip it to the header. */}
      {open &&
        createPortal(
      <div className="fixed inset-0 z-50">
        <div className="absolute inset-0 bg-ink/40" aria-hidden="true" data-testid="menu-backdrop" onClick={close} />
        <div
          ref={sheetRef}
          id={sheetId}
          role="dialog"
          aria-modal="true"
          aria-label="Menu"
          className="absolute inset-y-0 right-0 flex w-[min(20rem,85vw)] flex-col gap-6 bg-sand p-6 shadow-[var(--shadow-lift)]"
        >
          <div className="flex justify-end">
            <button type="button" className="btn-ghost -mr-2 px-3" aria-label="Close menu" onClick={close}>
              <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </div>
          <nav aria-label="Mobile">
            <ul className="flex flex-col gap-1">
              {links.map((link) => (
                <li key={link.href}>
                  <a
                    href={link.href}
                    onClick={close}
                    data-analytics-action={link.section ? 'scroll_to_section' : undefined}
                    data-analytics-category={link.section ? 'navigation' : undefined}
                    data-analytics-label={link.section}
                    className="block rounded-xl px-3 py-3 text-lg font-medium text-ink hover:bg-shell"
                  >
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-auto flex flex-col gap-3">
            {account.status === 'signed-in' ? (
              <>
                <div className="flex items-center gap-3 rounded-xl bg-white p-3">
                  <Avatar user={account.user} />
                  <div className="min-w-0">
                    {fullName(account.user) && <p className="font-medium text-ink">{fullName(account.user)}</p>}
                    <p className="truncate text-sm text-ink-muted">{account.user.email}</p>
                  </div>
                </div>
                <a href="/api/logout" onClick={close} className="btn-secondary" data-analytics-action="sign_out_clicked" data-analytics-category="auth">
                  Sign Out
                </a>
              </>
            ) : account.status === 'loading' && /(?:^|;\s*)signed_in=1(?:;|$)/.test(document.cookie) ? (
              <span className="block h-16 animate-pulse rounded-xl bg-stone" aria-label="Loading your account" role="img" />
            ) : (
              <>
                <a href={actions.signIn.href} onClick={close} className="btn-secondary" data-analytics-action="sign_in_clicked" data-analytics-category="auth">
                  {actions.signIn.label}
                </a>
                <a href={actions.bookNow.href} onClick={close} className="btn-primary" data-analytics-action="book_now_nav" data-analytics-category="cta">
                  {actions.bookNow.label}
                </a>
              </>
            )}
          </div>
        </div>
      </div>,
          document.body,
        )}
    </>
  );
}
