// The content version (site_meta) moves when something a public page shows
// changes, and every move asks for a rebuild: tests count the moves a write makes.
import { siteMeta } from '#db/schema.ts';
import { db } from '#lib/server/db.ts';

export const contentVersion = () => db.select().from(siteMeta).get()!.contentVersion;

/** `work`'s answer and how often it moved the content version, the write lock held so no other test file's write counts. */
export const counted = <T>(work: () => T) =>
  db.transaction(
    () => {
      const before = contentVersion();
      const result = work();
      return { result, bumps: contentVersion() - before };
    },
    { behavior: 'immediate' },
  );
