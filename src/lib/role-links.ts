// The account menus' links for a role (issue 26), after the spec's Dashboard
// (the member home): an owner's dashboard, and for an editor the editors'
// desk too (an editor can do all an owner can). Shared by the desktop menu
// (UserNav) and the phone's sheet (MobileMenu), which must not load more.
export const ROLES = ['client', 'owner', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function roleLinks(role: Role | null | undefined): { label: string; href: string }[] {
  const links: { label: string; href: string }[] = [];
  if (role === 'owner' || role === 'admin') links.push({ label: 'Owner dashboard', href: '/owner/dashboard' });
  if (role === 'admin') links.push({ label: 'Editor desk', href: '/admin' });
  return links;
}
