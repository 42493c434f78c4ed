import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import type { BroadcastTicket } from '../../platform/db/confirmed-broadcast.ts';

/** The PostgreSQL notification channel on which revoked and reissued key ids are announced. */
export const API_KEY_CHANGES_CHANNEL = 'transcribe_api_key_changes';

/** The payload that tells every watcher to drop its whole cache (ids too many for one notification). */
export const FORGET_ALL_API_KEYS = '*';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more (docs: "NOTIFY", Parameters). */
const MAX_PAYLOAD_BYTES = 7_000;

/**
 * Announces that these keys changed (revoked, or their stop time moved), so every process's key
 * cache drops them (watch-api-key-changes.ts). Call it inside the transaction that changes the rows:
 * PostgreSQL delivers a `NOTIFY` only when that transaction commits, and never if it rolls back
 * (docs: "NOTIFY"), so no process can drop a row and then read the old one back. The payload is
 * the ids joined by commas; more ids than fit in one payload become {@link FORGET_ALL_API_KEYS}.
 * With a `ticket` (from confirmApiKeyChanges) the payload is `token;ids`, each watcher confirms with
 * that token once it has dropped the keys, and `ticket.announced` is set.
 * @throws Error from the driver when the statement fails (the caller's transaction then rolls back).
 */
export async function publishApiKeyChanges(db: Db, ids: readonly string[], ticket: BroadcastTicket | null = null): Promise<void> {
  if (ids.length === 0) return;
  const joined = ids.join(',');
  const list = Buffer.byteLength(joined) < MAX_PAYLOAD_BYTES ? joined : FORGET_ALL_API_KEYS;
  const payload = ticket ? `${ticket.token};${list}` : list;
  await db.execute(sql`SELECT pg_notify(${API_KEY_CHANGES_CHANNEL}, ${payload})`);
  if (ticket) ticket.announced = true;
}
