// The results heading of a search (spec 2, Search results: "N Distinguished
// Providers Found"), in the singular for one (issue 26).
export const providersFoundHeading = (count: number) => `${count} Distinguished ${count === 1 ? 'Provider' : 'Providers'} Found`;
