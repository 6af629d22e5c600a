// Names for what a unit test makes. Each test file has its own copy of the
// run's seeded database (tests/unit-database.ts), thrown away when the file
// ends, so nothing is cleaned up afterwards; a tag keeps what one test makes
// apart from what another test of the same file makes, and from the seed.

/** A tag no other test (or earlier run) has: `name-<time>-<random>`, for slugs and e-mail addresses. */
export const testTag = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
