import { randomBytes } from 'node:crypto';
import type { Database } from './open-database.ts';
import { BROADCAST_PING_PREFIX, type ConfirmedBroadcast } from './confirmed-broadcast.ts';

/** How often a watcher on PostgreSQL checks its own subscription with a ping, ms. */
export const DEFAULT_BROADCAST_HEARTBEAT_MS = 2_000;

/** What a watcher does with the channel's announcements and state. */
export interface BroadcastHandlers {
  /** Acts on one announcement's body (without its token); the confirmation is sent after it returns. */
  onBody(body: string): void;
  /**
   * The channel is known to work again (first subscription, or back after a loss): announcements
   * of the gap may have been missed, so whatever was trusted must be dropped here.
   */
  onUp(): void;
  /** The channel is known not to work (lost ping, unreachable database, re-listen). */
  onDown(): void;
}

export interface WatchBroadcastOptions {
  /**
   * How often the subscription is checked by sending a ping through it, ms; a ping not back by the
   * next check marks the channel down. Default {@link DEFAULT_BROADCAST_HEARTBEAT_MS} on PostgreSQL;
   * PGlite (one process, notifications delivered in-process) needs none, and 0 turns it off.
   */
  heartbeatMs?: number;
  /** Lines logged on the channel's loss, return and re-listen (warn, info, warn). */
  messages: { down: (reason: string) => string; back: string; relistened: string };
  /** Where those lines go. */
  log: (level: 'info' | 'warn', message: string) => void;
}

export interface BroadcastWatch {
  /** Ends the subscription and the heartbeat (onDown is called). */
  stop(): Promise<void>;
}

/**
 * Watches a confirmed broadcast (confirmed-broadcast.ts): calls `handlers.onBody` for each
 * announcement, then, when it carried a token, confirms it on `broadcast.acksChannel` so the
 * announcing process (confirm-broadcast.ts) can return. The subscription is on a connection of its
 * own named `broadcast.watcherApplicationName`, so announcing processes can count the watchers.
 * While the subscription is known to work the watcher is "up"; when it is lost (the heartbeat ping
 * does not come back, the ping cannot be sent, or the driver re-listens after a reconnect) the loss
 * is logged and `onDown` runs; `onUp` runs when it works again, since an announcement may have been
 * missed meanwhile. After two missed pings the subscription is made anew (postgres.js gives up a
 * channel whose re-listen failed during an outage).
 * @throws Error from the driver when the first subscription cannot be made.
 */
export async function watchBroadcast(
  database: Database,
  broadcast: ConfirmedBroadcast,
  handlers: BroadcastHandlers,
  options: WatchBroadcastOptions,
): Promise<BroadcastWatch> {
  const heartbeatMs = options.heartbeatMs ?? (database.kind === 'postgres' ? DEFAULT_BROADCAST_HEARTBEAT_MS : 0);
  const { log, messages } = options;
  const nonce = randomBytes(8).toString('hex');
  let up = false;
  let everUp = false;
  let sentPing = 0;
  let ackedPing = 0;
  let missed = 0;
  let stopped = false;

  const markUp = () => {
    if (up || stopped) return;
    handlers.onUp(); // an announcement may have been sent while nobody listened
    up = true;
    if (everUp) log('info', messages.back);
    everUp = true;
  };
  const markDown = (reason: string) => {
    if (!up || stopped) return;
    up = false;
    handlers.onDown();
    log('warn', messages.down(reason));
  };
  const onPayload = (payload: string) => {
    if (payload.startsWith(BROADCAST_PING_PREFIX)) {
      const [, from, seq] = payload.split(':');
      if (from === nonce && Number(seq) === sentPing) {
        ackedPing = sentPing;
        missed = 0;
        markUp();
      }
      return;
    }
    const split = payload.indexOf(';');
    const token = split >= 0 ? payload.slice(0, split) : null;
    handlers.onBody(split >= 0 ? payload.slice(split + 1) : payload);
    // The announcing process waits for this before it returns (confirm-broadcast.ts).
    if (token) void database.executeSql('SELECT pg_notify($1, $2)', [broadcast.acksChannel, `${token}:${nonce}`]).catch(() => {});
  };
  const onListen = () => {
    // The first call, and every re-listen after a lost connection: announcements of the gap are lost.
    if (everUp && up) log('warn', messages.relistened);
    if (up) handlers.onDown();
    up = false;
    markUp();
  };

  const listenOptions = { applicationName: broadcast.watcherApplicationName };
  let unlisten = await database.listen(broadcast.channel, onPayload, onListen, listenOptions);

  const beat = async () => {
    if (sentPing !== ackedPing) {
      missed += 1;
      markDown('a heartbeat ping did not come back');
      if (missed >= 2) {
        await unlisten().catch(() => {});
        unlisten = await database.listen(broadcast.channel, onPayload, onListen, listenOptions).catch(() => unlisten);
      }
    }
    sentPing += 1;
    await database
      .executeSql('SELECT pg_notify($1, $2)', [broadcast.channel, `${BROADCAST_PING_PREFIX}${nonce}:${sentPing}`])
      .catch((error: Error) => markDown(`the database is unreachable: ${error.message}`));
  };
  let beating = false;
  const timer =
    heartbeatMs > 0
      ? setInterval(() => {
          if (beating) return; // a re-listen on a dead connection can take the driver's connect timeout
          beating = true;
          void beat().finally(() => (beating = false));
        }, heartbeatMs)
      : null;
  timer?.unref();

  return {
    async stop() {
      if (timer) clearInterval(timer);
      if (up) handlers.onDown();
      up = false;
      stopped = true;
      await unlisten().catch(() => {});
    },
  };
}
