// A user with a live session, made directly in a database file the way
// src/lib/server/auth/sessions.ts makes them. Apart from ./sessions.ts so that
// benchmarks, which have no e2e run (./env.ts), can use it too.
import { hashToken, randomToken } from '#lib/server/auth/tokens.ts';
import { withDatabase } from './database.ts';

export interface TestUser {
  id: number;
  email: string;
  token: string;
}

export function insertSignedInUser(path: string, fields: { firstName?: string; lastName?: string; role?: 'client' | 'owner' | 'admin' } = {}): TestUser {
  const email = `user-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  return withDatabase(
    path,
    (db) => {
      const user = db
        .prepare('insert into users (email, first_name, last_name, role) values (?, ?, ?, ?) returning id')
        .get(email, fields.firstName ?? null, fields.lastName ?? null, fields.role ?? 'client') as { id: number };
      // The sizes createSession uses (src/lib/server/auth/sessions.ts): the server checks the token's shape.
      const id = randomToken(15);
      const secret = randomToken(20);
      db.prepare('insert into sessions (id, secret_hash, user_id, expires_at) values (?, ?, ?, ?)').run(
        id,
        hashToken(secret),
        user.id,
        Date.now() + 86_400_000,
      );
      return { id: user.id, email, token: `${id}.${secret}` };
    },
    { write: true },
  );
}
