// A user with a live session, made directly in a database file the way
// src/lib/server/auth/sessions.ts makes them. Apart from ./sessions.ts so that
// benchmarks, which have no e2e run (./env.ts), can use it too.
import { sessions, users } from '#db/schema.ts';
import { hashToken, randomToken } from '#lib/server/auth/tokens.ts';
import { withTablesAt } from './database.ts';

export interface TestUser {
  id: number;
  email: string;
  token: string;
}

export function insertSignedInUser(path: string, fields: { firstName?: string; lastName?: string; role?: 'client' | 'owner' | 'admin' } = {}): TestUser {
  const email = `user-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  return withTablesAt(
    path,
    (db) => {
      const user = db
        .insert(users)
        .values({ email, firstName: fields.firstName ?? null, lastName: fields.lastName ?? null, role: fields.role ?? 'client' })
        .returning({ id: users.id })
        .get();
      // The sizes createSession uses (src/lib/server/auth/sessions.ts): the server checks the token's shape.
      const id = randomToken(15);
      const secret = randomToken(20);
      db.insert(sessions)
        .values({ id, secretHash: hashToken(secret), userId: user.id, expiresAt: new Date(Date.now() + 86_400_000) })
        .run();
      return { id: user.id, email, token: `${id}.${secret}` };
    },
    { write: true },
  );
}
