import type { RecordingFacts } from './describe-recording.ts';

/** One recording being fetched from Telegram, before it is queued as a prediction. */
export interface TrackedDownload {
  /** Aborts when the person cancels (/cancel) or the bot stops. */
  readonly signal: AbortSignal;
  /** True when the person canceled it (not when the bot stops). */
  canceled(): boolean;
  /** Forgets it (the prediction exists or the download failed). */
  done(): void;
}

/**
 * The recordings of this bot process still being downloaded. Before its prediction exists a
 * recording is only here, so /cancel asks this tracker too and the person is told it was canceled.
 */
export interface DownloadTracker {
  /**
   * Registers a download of `userId`'s `recording`, shown in status message `statusKey`
   * (`<chat id>:<message id>`); its signal also follows `parent` (the bot stopping).
   */
  start(userId: number, recording: RecordingFacts, parent: AbortSignal, statusKey?: string): TrackedDownload;
  /** Cancels all of `userId`'s downloads; returns their recordings. */
  cancel(userId: number): RecordingFacts[];
  /**
   * Cancels the download shown in status message `statusKey` when it is `userId`'s (its ✖ Cancel
   * button); `not_found` when there is none (done, or someone else's).
   */
  cancelOne(statusKey: string, userId: number): 'canceled' | 'not_found';
}

/** A DownloadTracker (one per running bot, made by startBot and passed in BotDeps). */
export function createDownloadTracker(): DownloadTracker {
  type Entry = { userId: number; recording: RecordingFacts; statusKey: string | undefined; controller: AbortController; canceled: boolean };
  const running = new Set<Entry>();
  const cancelEntry = (entry: Entry) => {
    entry.canceled = true;
    entry.controller.abort(new Error('canceled by the person'));
    running.delete(entry);
  };
  return {
    start(userId, recording, parent, statusKey) {
      const entry: Entry = { userId, recording, statusKey, controller: new AbortController(), canceled: false };
      running.add(entry);
      const signal = AbortSignal.any([entry.controller.signal, parent]);
      return { signal, canceled: () => entry.canceled, done: () => void running.delete(entry) };
    },
    cancel(userId) {
      const recordings: RecordingFacts[] = [];
      for (const entry of running) {
        if (entry.userId !== userId) continue;
        cancelEntry(entry);
        recordings.push(entry.recording);
      }
      return recordings;
    },
    cancelOne(statusKey, userId) {
      const entry = [...running].find((candidate) => candidate.statusKey === statusKey && candidate.userId === userId);
      if (!entry) return 'not_found';
      cancelEntry(entry);
      return 'canceled';
    },
  };
}
