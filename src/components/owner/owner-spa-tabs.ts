// The pages of one listing, in the order of the tab bar every one of them
// shows (OwnerSpaHeader.astro): a page no tab leads to is a page nobody finds.
export const OWNER_SPA_TABS = [
  { key: 'listing', label: 'Listing', path: '' },
  { key: 'photos', label: 'Photos', path: '/photos' },
  { key: 'services', label: 'Services', path: '/services' },
  { key: 'offers', label: 'Offers', path: '/offers' },
  { key: 'availability', label: 'Hours & booking', path: '/availability' },
  { key: 'clinicians', label: 'Clinicians', path: '/clinicians' },
  { key: 'policies', label: 'Policies', path: '/policies' },
  { key: 'reviews', label: 'Reviews', path: '/reviews' },
] as const;

export type OwnerSpaTab = (typeof OWNER_SPA_TABS)[number]['key'];
