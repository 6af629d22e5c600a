// Housekeeping: rows that are of no use to anyone once their time is up.
// Run by server/serve.ts, in the one process with BACKGROUND_JOBS=on, at start
// and every night after midnight in Orange County; nothing else deletes these
// rows (a spent or expired token is refused when used, and stays until then). It takes the database as a parameter (no astro:env), so the server
// script, the tests and a one-off `node` call can all run it.
//   sessions            expired (a sign-in lasts 30 days, sliding)
//   magic_tokens        spent, or past their 15 minutes
//   newsletter tokens   confirmation tokens older than their 7 days (the row stays)
//   rate_limits         windows long over (the longest window is a day)
//   account_networks    an owner's network not seen for 180 days (trust/visit-evidence.ts)
// It also runs the frequent jobs: every 15 minutes, requests unanswered for
// 24 hours remind their spa once (unanswered-requests.ts); every 5, bookings
// whose card step was left unfinished give their time back (billing/unfinished.ts).
import { and, isNotNull, lt, or, eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { accountNetworks, magicTokens, newsletterSubscribers, rateLimits, sessions } from '#db/schema.ts';
import { msUntilNextPacificMidnight } from '../dates.ts';
import { logger } from '../log.ts';
import { remindUnansweredRequests } from './bookings/unanswered-requests.ts';
import { lapseUnfinishedCardSteps, UNFINISHED_CHECK_MS } from './billing/unfinished.ts';

/** Rate-limit rows whose window began this long ago are over whatever their window (at most an hour). */
export const RATE_LIMIT_KEEP_MS = 24 * 3_600_000;
/** How long an owner's network counts as theirs after it was last seen (trust/visit-evidence.ts OWNER_NETWORK_DAYS; a test keeps them equal). */
export const OWNER_NETWORK_KEEP_MS = 180 * 24 * 3_600_000;
/** The life of a newsletter confirmation token (newsletter.ts CONFIRM_TTL_MS; a test keeps them equal). */
export const NEWSLETTER_CONFIRM_TTL_MS = 7 * 24 * 3_600_000;

/** Deletes (or, for newsletter tokens, clears) what has expired by `now`; returns how many rows of each. */
export function pruneExpired(db: Db, now: number = Date.now()) {
  return db.transaction((tx) => ({
    sessions: tx
      .delete(sessions)
      .where(lt(sessions.expiresAt, new Date(now)))
      .run().changes,
    magicTokens: tx
      .delete(magicTokens)
      .where(or(eq(magicTokens.used, true), lt(magicTokens.expiresAt, new Date(now))))
      .run().changes,
    newsletterTokens: tx
      .update(newsletterSubscribers)
      .set({ confirmTokenHash: null })
      .where(and(isNotNull(newsletterSubscribers.confirmTokenHash), lt(newsletterSubscribers.confirmSentAt, new Date(now - NEWSLETTER_CONFIRM_TTL_MS))))
      .run().changes,
    rateLimits: tx
      .delete(rateLimits)
      .where(lt(rateLimits.windowStart, new Date(now - RATE_LIMIT_KEEP_MS)))
      .run().changes,
    accountNetworks: tx
      .delete(accountNetworks)
      .where(lt(accountNetworks.lastSeenAt, new Date(now - OWNER_NETWORK_KEEP_MS)))
      .run().changes,
  }));
}

export type PruneCounts = ReturnType<typeof pruneExpired>;

const log = logger('housekeeping');

/** How often unanswered requests are looked for: a reminder is at most this late. */
export const UNANSWERED_CHECK_MS = 15 * 60_000;

/** Prunes now and then every night a few minutes after midnight Pacific; the timers never keep the process alive. */
export function startHousekeeping(db: Db): void {
  const run = () => {
    try {
      const counts = pruneExpired(db);
      const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
      if (total > 0)
        log.info(
          `pruned ${Object.entries(counts)
            .map(([what, n]) => `${n} ${what}`)
            .join(', ')}`,
        );
    } catch (error) {
      // A busy database tonight is no reason to stop: tomorrow's run catches up.
      log.error('pruning failed', error);
    }
  };
  const scheduleNext = () => {
    setTimeout(
      () => {
        run();
        scheduleNext();
      },
      msUntilNextPacificMidnight() + 5 * 60_000,
    ).unref();
  };
  run();
  scheduleNext();

  // The address in the reminder mail: the public site, as serve.ts loaded it from the environment.
  const origin = process.env.SITE_URL ?? 'http://localhost:4321';
  const remind = () => {
    try {
      const reminded = remindUnansweredRequests(db, origin);
      if (reminded > 0) log.info(`reminded spas of ${reminded} unanswered request${reminded === 1 ? '' : 's'}`);
    } catch (error) {
      log.error('reminding spas of unanswered requests failed', error);
    }
  };
  remind();
  setInterval(remind, UNANSWERED_CHECK_MS).unref();

  // Bookings whose card step was left unfinished give their time back (no-show protection).
  const lapse = () => {
    try {
      const lapsed = lapseUnfinishedCardSteps(db);
      if (lapsed > 0) log.info(`released ${lapsed} booking${lapsed === 1 ? '' : 's'} whose card step was left unfinished`);
    } catch (error) {
      log.error('releasing unfinished card steps failed', error);
    }
  };
  lapse();
  setInterval(lapse, UNFINISHED_CHECK_MS).unref();
}
