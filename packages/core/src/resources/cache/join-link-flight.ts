import type { ServiceContext } from '../../service-context.ts';

/** Who asks for which link: the cache entry's namespace and link (spec 2.6.6–7) and the paying user. */
export interface LinkFlightKey {
  /** Cache namespace of the prediction (`api`, `bot`, `portal`). */
  namespace: string;
  /** The exact link (the cache key, spec 2.6.7). */
  link: string;
  /** The paying user (resources/billing/charge-prediction.ts `payingUserOf`). */
  userId: string;
}

/** A place in the single flight of a link, taken by joinLinkFlight. */
export interface LinkFlight {
  /** Lets the next prediction waiting for this link's download and transcript go (idempotent, never throws). */
  endWork(): Promise<void>;
  /** Ends the flight: endWork, then the paying user's turn (idempotent, never throws). */
  end(): Promise<void>;
}

const workLock = (key: LinkFlightKey) => `link-work\n${key.namespace}\n${key.link}`;
const payerLock = (key: LinkFlightKey) => `link-payer\n${key.namespace}\n${key.link}\n${key.userId}`;

/**
 * Joins the single flight of a link (docs/caching-and-billing.md, "Concurrent requests for the same
 * link"): waits for, then takes, two locks of `ctx.database.locks` in this order, never the other:
 *  1. the paying user's turn on the link, held until the caller's prediction is charged or has
 *     ended (`end`), so the same user's concurrent request is charged after this one and is a free
 *     repeat when this one paid (spec 2.6.2);
 *  2. the link's work lock, held while the recording is downloaded and recognised (`endWork`), so a
 *     concurrent request of any user for the same link waits and then finds both in the cache
 *     (spec 2.6.1) instead of downloading and recognising again.
 * Locks are PostgreSQL session advisory locks (every process; freed when a holder's process dies)
 * or in-process ones for PGlite. Whoever waits does the work itself if the holder failed or was
 * canceled: the locks only order the work, the cache says what is left to do.
 * @throws the signal's reason when `signal` aborts while waiting (nothing is held then).
 * @throws Error from the database driver when a lock cannot be taken.
 */
export async function joinLinkFlight(ctx: ServiceContext, key: LinkFlightKey, signal?: AbortSignal): Promise<LinkFlight> {
  const { locks } = ctx.database;
  const releasePayer = await locks.acquire(payerLock(key), signal);
  let releaseWork: (() => Promise<void>) | null = null;
  try {
    releaseWork = await locks.acquire(workLock(key), signal);
  } catch (error) {
    await releasePayer();
    throw error;
  }
  const endWork = async () => void (await releaseWork?.());
  return {
    endWork,
    async end() {
      await endWork();
      await releasePayer();
    },
  };
}

/**
 * Waits until no prediction of the same paying user is in the flight of this link (joinLinkFlight
 * step 1), without joining it: a repeat that finds the answer in the cache is then charged after
 * that prediction, and free when it paid (spec 2.6.2).
 * @throws the signal's reason when `signal` aborts while waiting.
 * @throws Error from the database driver.
 */
export async function awaitPayerTurn(ctx: ServiceContext, key: LinkFlightKey, signal?: AbortSignal): Promise<void> {
  await ctx.database.locks.waitUntilFree(payerLock(key), signal);
}
