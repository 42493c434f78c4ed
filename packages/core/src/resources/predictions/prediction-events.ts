/**
 * What the prediction code announces about one prediction:
 * - `started`: its work began (a worker marked it started);
 * - `log-appended`: a line was added to its `logs` (progress, or the last line with its end);
 * - `ended`: it may have reached a terminal state (succeeded, failed or canceled); a listener
 *   reads the row to know;
 * - `changed`: its row was written (any column a GET shows), published by every writer before it
 *   returns (announce-prediction-change.ts), so this process's cached answers can be dropped;
 * - `segment`: the engine recognised a piece of text (`segment` set; announce-early-segment.ts), for
 *   a client that follows the work live (`stream=true`).
 */
export interface PredictionEvent {
  type: 'started' | 'log-appended' | 'ended' | 'changed' | 'segment';
  predictionId: string;
  /** With `segment` only. */
  segment?: AnnouncedSegment;
}

/**
 * One recognised piece of text of a running prediction, as the engine first gave it: `seq` counts
 * them from 0 in the order of the recording (a listener that hears one twice, in-process and
 * through PostgreSQL, keeps the first); times in seconds.
 */
export interface AnnouncedSegment {
  seq: number;
  start: number;
  end: number;
  text: string;
}

/**
 * Reacts to one event. It runs synchronously inside `publish`; a returned promise is what
 * `publish` waits for. It should not throw: a failure is reported to the channel's `onError`.
 */
export type PredictionEventListener = (event: PredictionEvent) => void | Promise<void>;

/**
 * The in-process channel on which prediction code publishes its events and other parts of the
 * service (webhook delivery) subscribe, so predictions never import their subscribers. It lives on
 * the ServiceContext; a process with no subscriber publishes to no one.
 */
export interface PredictionEvents {
  /**
   * Calls every listener now, in subscription order, and resolves when the promises they returned
   * have settled. Never rejects: a listener's error goes to `onError`, so a caller that does not
   * wait (the `started` and `log-appended` events) leaves no unhandled rejection behind.
   */
  publish(event: PredictionEvent): Promise<void>;
  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: PredictionEventListener): () => void;
}

/**
 * Makes an empty channel. `onError(error, event)` receives what a listener threw or rejected with
 * (default: nothing; listeners such as the webhook notifier log their own failures).
 */
export function createPredictionEvents(onError: (error: Error, event: PredictionEvent) => void = () => {}): PredictionEvents {
  const listeners = new Set<PredictionEventListener>();
  return {
    publish(event) {
      const pending: Promise<void>[] = [];
      for (const listener of [...listeners]) {
        try {
          const result = listener(event);
          if (result) pending.push(result.catch((error: Error) => onError(error, event)));
        } catch (error) {
          onError(error as Error, event);
        }
      }
      return pending.length === 0 ? Promise.resolve() : Promise.all(pending).then(() => undefined);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
