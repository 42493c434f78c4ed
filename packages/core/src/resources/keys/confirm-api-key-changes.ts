import type { Database } from '../../platform/db/open-database.ts';
import { confirmBroadcast } from '../../platform/db/confirm-broadcast.ts';
import type { BroadcastTicket, ConfirmedBroadcast } from '../../platform/db/confirmed-broadcast.ts';
import { API_KEY_CHANGES_CHANNEL } from './publish-api-key-changes.ts';

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
export type KeyChangeTicket = BroadcastTicket;

/** The key-change channel as a confirmed broadcast (platform/db/confirmed-broadcast.ts). */
export const API_KEY_BROADCAST: ConfirmedBroadcast = {
  channel: API_KEY_CHANGES_CHANNEL,
  acksChannel: API_KEY_CHANGE_ACKS_CHANNEL,
  watcherApplicationName: API_KEY_WATCHER_APPLICATION_NAME,
};

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
 * that process then relies on its KEY_CACHE_TTL_MS fallback. The machinery is the shared confirmed
 * broadcast of platform/db/confirm-broadcast.ts.
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
  const log = options.log;
  return confirmBroadcast(database, API_KEY_BROADCAST, change, {
    timeoutMs: options.timeoutMs ?? DEFAULT_KEY_CHANGE_CONFIRM_TIMEOUT_MS,
    onUnconfirmed:
      log &&
      ((missing, expected, timeoutMs) =>
        log(
          `${missing} of ${expected} key-watching processes did not confirm a key change within ${timeoutMs} ms; there the change takes effect within KEY_CACHE_TTL_MS`,
        )),
  });
}
