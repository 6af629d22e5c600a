import { useState } from 'react';
import { toast } from '#lib/client/toasts.ts';

// The owner dashboard's Logout (spec 4: owners log out through a call, then go
// to /owner/login). The server ends the session row, so the old cookie is dead
// even if something kept a copy.
export default function LogoutButton() {
  const [pending, setPending] = useState(false);

  async function logout() {
    setPending(true);
    try {
      const response = await fetch('/api/auth/logout', { method: 'POST', credentials: 'include' });
      if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
      window.location.assign('/owner/login');
    } catch {
      setPending(false);
      toast({ title: 'Error', description: 'Failed to logout. Please try again.', variant: 'destructive' });
    }
  }

  return (
    <button type="button" className="btn-secondary" onClick={logout} disabled={pending} aria-busy={pending}>
      {pending ? 'Logging out...' : 'Logout'}
    </button>
  );
}
