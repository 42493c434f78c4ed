import { randomBytes } from 'node:crypto';
import type { Database } from './open-database.ts';
import type { BroadcastTicket, ConfirmedBroadcast } from './confirmed-broadcast.ts';

/** How long an announcement waits for every watching process to confirm, ms. */
export const DEFAULT_BROADCAST_CONFIRM_TIMEOUT_MS = 3_000;

export interface ConfirmBroadcastOptions {
  /** Upper bound of the wait, ms (default {@link DEFAULT_BROADCAST_CONFIRM_TIMEOUT_MS}). */
  timeoutMs?: number;
  /**
   * Called when the wait ended at its bound with `missing` of `expected` watchers unconfirmed
   * (the change holds all the same; such a watcher relies on its own fallback). Absent: not reported.
   */
  onUnconfirmed?: (missing: number, expected: number, timeoutMs: number) => void;
}

/**
 * Runs `change` (which sends `token;body` on `broadcast.channel` with the token of the ticket it is
 * given, and sets the ticket's `announced`; e.g. resources/keys/publish-api-key-changes.ts) and
 * returns only once every process watching `broadcast` (watch-broadcast.ts) confirmed it, so the
 * next request to any of them, sent after this returns, sees the change.
 *
 * Why: PostgreSQL delivers a NOTIFY asynchronously (docs: "NOTIFY"). A request that reaches another
 * process right after the change commits can be served before that process has read the
 * notification. So each watcher confirms on `broadcast.acksChannel` once it acted, and this waits
 * for as many confirmations as there are watcher connections (`application_name` =
 * `broadcast.watcherApplicationName`) in `pg_stat_activity` of this database, counted before the
 * change so every one of them receives it. A watcher that is stuck or just died makes this wait at
 * most `timeoutMs`, reported through `onUnconfirmed`.
 *
 * Without `database`, or on PGlite (one process; its notifications are delivered in-process before
 * the commit returns), `change` runs with a `null` ticket and nothing is awaited; nor is anything
 * when `change` announced nothing or nobody watches.
 * @returns what `change` returned.
 * @throws whatever `change` throws (then nothing is awaited), or the driver's error when the
 *   confirmation channel cannot be subscribed or the watchers cannot be counted.
 */
export async function confirmBroadcast<T>(
  database: Database | undefined,
  broadcast: ConfirmedBroadcast,
  change: (ticket: BroadcastTicket | null) => Promise<T>,
  options: ConfirmBroadcastOptions = {},
): Promise<T> {
  if (!database || database.kind !== 'postgres') return change(null);
  const timeoutMs = options.timeoutMs ?? DEFAULT_BROADCAST_CONFIRM_TIMEOUT_MS;
  const token = randomBytes(8).toString('hex');
  const confirmedBy = new Set<string>();
  let wake = () => {};
  const unlisten = await database.listen(broadcast.acksChannel, (payload) => {
    const [from, watcher] = payload.split(':');
    if (from !== token || !watcher) return;
    confirmedBy.add(watcher);
    wake();
  });
  try {
    const { rows } = await database.executeSql(
      'SELECT count(*)::int AS watchers FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [broadcast.watcherApplicationName],
    );
    const expected = (rows[0] as { watchers: number } | undefined)?.watchers ?? 0;
    const ticket: BroadcastTicket = { token, announced: false };
    const result = await change(ticket);
    if (!ticket.announced) return result; // nothing announced, so nobody confirms
    const deadline = Date.now() + timeoutMs;
    while (confirmedBy.size < expected && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    if (confirmedBy.size < expected) options.onUnconfirmed?.(expected - confirmedBy.size, expected, timeoutMs);
    return result;
  } finally {
    await unlisten().catch(() => {});
  }
}
