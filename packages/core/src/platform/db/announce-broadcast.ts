import { sql } from 'drizzle-orm';
import type { Db } from './open-database.ts';
import type { BroadcastTicket, ConfirmedBroadcast } from './confirmed-broadcast.ts';

/**
 * Sends `body` on `broadcast.channel` (PostgreSQL `pg_notify`). Inside a transaction, PostgreSQL
 * delivers it only when that transaction commits and never if it rolls back (docs: "NOTIFY"). With a
 * `ticket` (from confirmBroadcast) the payload is `token;body`, each watcher confirms with that token,
 * and `ticket.announced` is set. `body` must stay under PostgreSQL's 8000-byte payload limit and must
 * not start with `ping:` (BROADCAST_PING_PREFIX).
 * @throws Error from the driver when the statement fails (a caller's transaction then rolls back).
 */
export async function announceBroadcast(
  db: Db,
  broadcast: ConfirmedBroadcast,
  body: string,
  ticket: BroadcastTicket | null = null,
): Promise<void> {
  const payload = ticket ? `${ticket.token};${body}` : body;
  await db.execute(sql`SELECT pg_notify(${broadcast.channel}, ${payload})`);
  if (ticket) ticket.announced = true;
}
