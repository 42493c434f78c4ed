import { randomBytes } from 'node:crypto';
import type { Database } from '../../platform/db/open-database.ts';

/** Channel on which each watching process confirms that it dropped the announced keys. */
export const API_KEY_CHANGE_ACKS_CHANNEL = 'transcribe_api_key_change_acks';

/**
 * `application_name` of every watcher's LISTEN connection (watch-api-key-changes.ts). The revoking
 * process counts these connections in `pg_stat_activity` to know how many confirmations to await.
 */
export const API_KEY_WATCHER_APPLICATION_NAME = 'transcribe-key-watcher';

/** How long a revocation waits for every watching process to confirm, ms. */
export const DEFAULT_KEY_CHANGE_CONFIRM_TIMEOUT_MS = 3_000;

/** Passed to publishApiKeyChanges: the token watchers confirm with; `announced` is set once sent. */
export interface KeyChangeTicket {
  token: string;
  announced: boolean;
}

export interface ConfirmApiKeyChangesOptions {
  /** Upper bound of the wait, ms (default {@link DEFAULT_KEY_CHANGE_CONFIRM_TIMEOUT_MS}). */
  timeoutMs?: number;
  /**
   * Where an unconfirmed change is reported, e.g. `(message) => logEvent(ctx, 'warn', 'keys', message)`
   * or a CLI's stderr; absent: not reported (the change holds all the same; the process that did not
   * confirm falls back on its KEY_CACHE_TTL_MS).
   */
  log?: (message: string) => void;
}

/**
 * Runs `change` (a transaction that revokes keys and announces them with publishApiKeyChanges,
 * passing on the ticket it is given) and returns only once every API process that caches keys has
 * dropped them, so the next request to any of them, sent after this returns, sees the change.
 *
 * Why: PostgreSQL delivers a NOTIFY asynchronously (docs: "NOTIFY"). A request that reaches another
 * process right after the revoking transaction commits can be served before that process has read
 * the notification. So each watcher confirms on {@link API_KEY_CHANGE_ACKS_CHANNEL} after dropping
 * the keys, and this waits for as many confirmations as there are watcher connections in
 * `pg_stat_activity` of this database (counted before the change, so every one of them receives
 * it). A process that is stuck or just died makes this wait at most `timeoutMs`, which is logged;
 * that process then relies on its KEY_CACHE_TTL_MS fallback.
 *
 * Without `database`, or on PGlite (one process; its notifications are delivered in-process before
 * the commit returns), `change` runs with a `null` ticket and nothing is awaited; nor is anything
 * when `change` announced no key (a first key, nothing revoked).
 * @returns what `change` returned.
 * @throws whatever `change` throws (then nothing is awaited), or the driver's error when the
 *   confirmation channel cannot be subscribed.
 */
export async function confirmApiKeyChanges<T>(
  database: Database | undefined,
  change: (ticket: KeyChangeTicket | null) => Promise<T>,
  options: ConfirmApiKeyChangesOptions = {},
): Promise<T> {
  if (!database || database.kind !== 'postgres') return change(null);
  const timeoutMs = options.timeoutMs ?? DEFAULT_KEY_CHANGE_CONFIRM_TIMEOUT_MS;
  const log = options.log ?? (() => {});
  const token = randomBytes(8).toString('hex');
  const confirmedBy = new Set<string>();
  let wake = () => {};
  const unlisten = await database.listen(API_KEY_CHANGE_ACKS_CHANNEL, (payload) => {
    const [from, watcher] = payload.split(':');
    if (from !== token || !watcher) return;
    confirmedBy.add(watcher);
    wake();
  });
  try {
    const { rows } = await database.executeSql(
      'SELECT count(*)::int AS watchers FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [API_KEY_WATCHER_APPLICATION_NAME],
    );
    const expected = (rows[0] as { watchers: number } | undefined)?.watchers ?? 0;
    const ticket: KeyChangeTicket = { token, announced: false };
    const result = await change(ticket);
    if (!ticket.announced) return result; // nothing changed, so nobody confirms
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
    if (confirmedBy.size < expected) {
      log(`${expected - confirmedBy.size} of ${expected} key-watching processes did not confirm a key change within ${timeoutMs} ms; there the change takes effect within KEY_CACHE_TTL_MS`);
    }
    return result;
  } finally {
    await unlisten().catch(() => {});
  }
}
