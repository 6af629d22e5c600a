// The editors' audit log (/admin/audit): who did what to which thing, when.
// Every editor action writes one row through here: listing decisions
// (admin.ts), licence checks (trust/clinicians.ts), decisions on reported
// reviews (trust/reviews.ts). Rows are only ever added.
import { eq } from 'drizzle-orm';
import { auditLog, users, type AuditAction } from '#db/schema.ts';
import { db } from '../db.ts';

type Writer = Pick<typeof db, 'insert' | 'select'>;

/** `actor.email` is copied into the row so it still says who it was after the account is gone; looked up when not given. */
export function recordAudit(
  actor: { id: number; email?: string },
  action: AuditAction,
  target: string,
  detail: string | null = null,
  writer: Writer = db,
): void {
  const actorEmail = actor.email ?? writer.select({ email: users.email }).from(users).where(eq(users.id, actor.id)).get()?.email ?? `user:${actor.id}`;
  writer.insert(auditLog).values({ actorId: actor.id, actorEmail, action, target, detail }).run();
}
