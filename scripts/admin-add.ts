// `npm run admin:add -- you@example.com`: makes the user with this address an
// editor (role admin), creating the account when there is none yet; they then
// sign in at /api/login as anyone does. The promotion is in the audit log.
import { eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { auditLog, users } from '#db/schema.ts';
import { emailAddress } from '#lib/auth-schemas.ts';
import { logger } from '#lib/log.ts';
import { envPath, loadEnv } from '#server/env.ts';

const log = logger('admin:add');

export function promoteToAdmin(db: Db, email: string): { id: number; email: string; outcome: 'created' | 'promoted' | 'already-admin' } {
  const parsed = emailAddress.safeParse(email);
  if (!parsed.success) throw new Error(`${JSON.stringify(email)} is not an e-mail address`);
  const address = parsed.data;
  return db.transaction((tx) => {
    const existing = tx.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, address)).get();
    if (existing?.role === 'admin') return { id: existing.id, email: address, outcome: 'already-admin' as const };
    const id = existing
      ? (tx.update(users).set({ role: 'admin', updatedAt: new Date() }).where(eq(users.id, existing.id)).run(), existing.id)
      : tx.insert(users).values({ email: address, role: 'admin' }).returning({ id: users.id }).get().id;
    tx.insert(auditLog)
      .values({ actorId: null, actorEmail: 'npm run admin:add', action: 'add-admin', target: `user:${id}`, detail: address })
      .run();
    return { id, email: address, outcome: existing ? ('promoted' as const) : ('created' as const) };
  });
}

if (import.meta.main) {
  loadEnv();
  const email = process.argv[2];
  if (!email || process.argv.length > 3) {
    log.error('usage: npm run admin:add -- you@example.com');
    process.exit(2);
  }
  try {
    const result = promoteToAdmin(migrateDatabase(envPath('DATABASE_PATH')), email);
    const said = { created: 'created as an editor', promoted: 'is now an editor', 'already-admin': 'was already an editor' }[result.outcome];
    log.info(`${result.email} ${said}; sign in at /api/login`);
  } catch (error) {
    log.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
