/** Options of groupCommit. */
export interface GroupCommitOptions {
  /** Most items written in one call of `write` (bounds the size of its statements); default 100. */
  maxBatch?: number;
}

/**
 * Group commit (the database technique of one log flush for several transactions, e.g. PostgreSQL's
 * `commit_delay`, done here by the caller): items arriving while a write is on its way to the
 * database wait and go together in the next call of `write`, as one transaction and one commit. A
 * write starts at the end of the event loop's current turn (`setImmediate`), never on a timer: the
 * items of every request whose bytes arrived in the same turn go together, and a lone item of a quiet
 * moment waits only for that turn. Under a burst the commits per second stay what the database can
 * do and each carries many items. (Writing the first item at once instead split a burst into a write
 * of one and a write of the rest.)
 *
 * When a write of several items fails, each of them is written again alone, so that one item the
 * database refuses fails only its own caller (and a database that was briefly away gets a second
 * try per item). A write of one item that fails rejects that caller with the database's error.
 *
 * @param write stores `items` in one transaction and returns one result per item, in their order.
 *   It must either store all of them or none.
 * @returns a function that writes one item and resolves with its result once it is committed.
 * @throws (from the returned function) what `write` threw for that item written alone, or an Error
 *   when `write` returned a different number of results than it was given items.
 * @example
 *   const insertRow = groupCommit((rows: Row[]) => db.insert(table).values(rows).returning());
 *   const stored = await insertRow({ id: 'p1' }); // one INSERT for every row that came meanwhile
 */
export function groupCommit<T, R>(write: (items: T[]) => Promise<R[]>, options: GroupCommitOptions = {}): (item: T) => Promise<R> {
  const maxBatch = Math.max(1, options.maxBatch ?? 100);
  interface Waiter {
    item: T;
    resolve: (result: R) => void;
    reject: (error: unknown) => void;
  }
  const waiting: Waiter[] = [];
  let writing = false;

  const writeChecked = async (items: T[]): Promise<R[]> => {
    const results = await write(items);
    if (results.length !== items.length) throw new Error(`a group write of ${items.length} items returned ${results.length} results`);
    return results;
  };

  const writeBatch = async (batch: Waiter[]): Promise<void> => {
    try {
      const results = await writeChecked(batch.map((waiter) => waiter.item));
      batch.forEach((waiter, i) => waiter.resolve(results[i]!));
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
    }
    for (const waiter of batch) {
      try {
        waiter.resolve((await writeChecked([waiter.item]))[0]!);
      } catch (error) {
        waiter.reject(error);
      }
    }
  };

  const drain = async (): Promise<void> => {
    writing = true;
    try {
      while (waiting.length > 0) await writeBatch(waiting.splice(0, maxBatch));
    } finally {
      writing = false;
    }
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!writing) {
        // Claimed now, started after this turn: what else arrives in this turn joins the write.
        writing = true;
        setImmediate(() => void drain());
      }
    });
}
