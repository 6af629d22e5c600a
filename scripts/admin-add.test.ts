import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDb } from '#db/test-db.ts';
import { auditLog, users } from '#db/schema.ts';
import { promoteToAdmin } from './admin-add.ts';

const { db, cleanup } = createTestDb();
afterAll(cleanup);

describe('npm run admin:add', () => {
  it('creates an editor for a new address, lower-cased, and logs it', () => {
    const result = promoteToAdmin(db, '  New.Editor@Example.com ');
    expect(result.outcome).toBe('created');
    expect(db.select().from(users).where(eq(users.id, result.id)).get()).toMatchObject({ email: 'new.editor@example.com', role: 'admin' });
    expect(
      db
        .select()
        .from(auditLog)
        .where(eq(auditLog.target, `user:${result.id}`))
        .all(),
    ).toMatchObject([{ action: 'add-admin', actorEmail: 'npm run admin:add' }]);
  });

  it('promotes an existing client, keeping the account', () => {
    const { id } = db.insert(users).values({ email: 'client@example.com', firstName: 'Ana' }).returning({ id: users.id }).get();
    expect(promoteToAdmin(db, 'client@example.com')).toEqual({ id, email: 'client@example.com', outcome: 'promoted' });
    expect(db.select().from(users).where(eq(users.id, id)).get()).toMatchObject({ role: 'admin', firstName: 'Ana' });
  });

  it('changes nothing for an editor, and refuses what is not an address', () => {
    const before = db.select().from(auditLog).all().length;
    expect(promoteToAdmin(db, 'client@example.com').outcome).toBe('already-admin');
    expect(() => promoteToAdmin(db, 'not-an-address')).toThrow(/not an e-mail address/);
    expect(db.select().from(auditLog).all()).toHaveLength(before);
  });
});
