// Functions under test take the signed-in person as a session hands them over,
// not as the users table stores them; tests make the row and take that view.
import { users } from '#db/schema.ts';
import type { SessionUser } from '#lib/server/auth/sessions.ts';
import { db } from '#lib/server/db.ts';

/** Inserts a user with this address and role, and returns them as their session would. */
export function insertUser(email: string, role: SessionUser['role'] = 'client'): SessionUser {
  const row = db.insert(users).values({ email, role }).returning().get();
  return { id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName, profileImageUrl: row.profileImageUrl, role: row.role };
}
