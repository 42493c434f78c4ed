/**
 * A notification channel whose announcements every watching process confirms
 * (confirm-broadcast.ts on the announcing side, watch-broadcast.ts on the watching side): the
 * machinery that makes a change made in one process hold in every other before the change's
 * writer returns. Used by key revocations only (resources/keys/): there strictness is a security
 * property and changes are rare. Prediction writes, 15–20 per prediction, announce without waiting
 * (resources/predictions/announce-prediction-change.ts), so a stalled API process slows no worker.
 */
export interface ConfirmedBroadcast {
  /** PostgreSQL channel of the announcements (payload `token;body`, or `body` when nobody waits). */
  channel: string;
  /** Channel on which each watcher confirms an announcement (payload `token:watcherNonce`). */
  acksChannel: string;
  /**
   * `application_name` of every watcher's LISTEN connection: the announcing process counts these
   * connections in `pg_stat_activity` to know how many confirmations to await.
   */
  watcherApplicationName: string;
}

/** Given to the change of confirmBroadcast: the token watchers confirm with; set `announced` once sent. */
export interface BroadcastTicket {
  token: string;
  announced: boolean;
}

/** The payload prefix of a watcher's own heartbeat ping (watch-broadcast.ts); never a real announcement. */
export const BROADCAST_PING_PREFIX = 'ping:';
