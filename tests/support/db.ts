// What a page's order is computed from in the end-to-end tests. The run's
// database itself is read and written through drizzle on db/schema.ts
// (#lib/server/db.ts, or ./database.ts withTablesAt for another server's copy).

export const tierWeight = (tier: string) => (tier === 'ELITE' ? 3 : tier === 'PREMIUM' ? 2 : 1);
