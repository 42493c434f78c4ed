import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';

/** Ends a held lock; safe to call more than once; never throws. */
export type ReleaseLock = () => Promise<void>;

/**
 * Exclusive locks named by a string, shared by every process of one database (PostgreSQL) or by
 * the one process that owns it (PGlite). Used for single flight of the same link
 * (resources/cache/join-link-flight.ts); see docs/caching-and-billing.md.
 */
export interface NamedLocks {
  /**
   * Waits until the lock `name` is free, takes it and resolves to its release function. A lock whose
   * holder's process dies is freed with it (PostgreSQL: the session ends).
   * @throws the signal's reason when `signal` aborts while waiting (the lock is then not held).
   * @throws Error from the driver when the database cannot be reached.
   */
  acquire(name: string, signal?: AbortSignal): Promise<ReleaseLock>;
  /**
   * Resolves once nobody holds the lock `name`, without taking it (it may be taken again at once).
   * @throws the signal's reason when `signal` aborts while waiting.
   */
  waitUntilFree(name: string, signal?: AbortSignal): Promise<void>;
}

/** How often `waitUntilFree` looks again at a PostgreSQL lock that is held, in ms. */
export const LOCK_POLL_INTERVAL_MS = 200;

/** The 64-bit key of PostgreSQL's advisory locks for a lock name: the first 8 bytes of its SHA-256. */
export function advisoryLockKey(name: string): bigint {
  return createHash('sha256').update(`transcribe-lock\n${name}`).digest().readBigInt64BE(0);
}

/**
 * Named locks as PostgreSQL session advisory locks (`pg_advisory_lock`), across processes. Each held
 * lock, and each wait for one, uses a connection of its own, opened for it and closed at release,
 * never one of `pool`: a lock held for the length of a download must not take a pooled connection
 * from the queries of the work it guards (with WORKER_CONCURRENCY runs, a pool of waiters could
 * otherwise starve the holder). At most one lock connection per running prediction and lock.
 * Aborting a wait closes its connection, which ends the server's wait. `waitUntilFree` polls with
 * `pg_try_advisory_xact_lock` on a pooled connection for one short transaction at a time.
 */
export function createAdvisoryLocks(url: string, pool: postgres.Sql): NamedLocks {
  return {
    async acquire(name, signal) {
      signal?.throwIfAborted();
      const key = advisoryLockKey(name).toString();
      // No max_lifetime: postgres.js would otherwise recycle the idle session (and drop the lock) after 30–60 min.
      // No fetch_types: the session reads no arrays, and postgres.js runs that read in a promise nobody
      // awaits, so closing the session during it (an aborted wait) was an unhandled rejection.
      const session = postgres(url, {
        max: 1,
        max_lifetime: null,
        fetch_types: false,
        onnotice: () => {},
        connection: { application_name: 'transcribe-lock' },
      });
      const close = () => session.end({ timeout: 0 }).catch(() => {});
      const onAbort = () => void close();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await session`SELECT pg_advisory_lock(${key}::bigint)`;
      } catch (error) {
        await close();
        throw signal?.aborted ? signal.reason : error;
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        // Closing the session releases the lock too; the explicit unlock only makes it immediate.
        await session`SELECT pg_advisory_unlock(${key}::bigint)`.catch(() => {});
        await session.end({ timeout: 5 }).catch(() => {});
      };
    },
    async waitUntilFree(name, signal) {
      const key = advisoryLockKey(name).toString();
      for (;;) {
        signal?.throwIfAborted();
        const free = await pool.begin(async (tx) => {
          const [row] = await tx`SELECT pg_try_advisory_xact_lock(${key}::bigint) AS free`;
          return Boolean(row?.free);
        });
        if (free) return;
        await sleep(LOCK_POLL_INTERVAL_MS, undefined, { signal }).catch((error: unknown) => {
          throw signal?.aborted ? signal.reason : error; // the reason, not node's AbortError
        });
      }
    },
  };
}

/**
 * Named locks inside one process (PGlite: one process, one connection): per name, a chain of
 * promises, so holders take turns in arrival order. The map lives in the Database object it is
 * created for, never at module level.
 */
export function createInProcessLocks(): NamedLocks {
  const tails = new Map<string, Promise<void>>();
  return {
    async acquire(name, signal) {
      signal?.throwIfAborted();
      const previous = tails.get(name) ?? Promise.resolve();
      let open!: () => void;
      const mine = new Promise<void>((resolve) => (open = resolve));
      const tail = previous.then(() => mine);
      tails.set(name, tail);
      const release: ReleaseLock = async () => {
        open(); // a later waiter still waits for `previous` first: the chain stays ordered
        if (tails.get(name) === tail) tails.delete(name);
      };
      try {
        await untilAborted(previous, signal);
      } catch (error) {
        await release();
        throw error;
      }
      return release;
    },
    async waitUntilFree(name, signal) {
      for (let tail = tails.get(name); tail; tail = tails.get(name)) await untilAborted(tail, signal);
      signal?.throwIfAborted();
    },
  };
}

/** `promise`, or a rejection with the signal's reason once `signal` aborts first. */
function untilAborted(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
