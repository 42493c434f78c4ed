import type { EarlySegment } from './recognize/transcribe-recording.ts';

/** Structured fields of a line for the operator's log only, e.g. the `seconds` a stage took. */
export interface StageLogFields {
  seconds: number;
}

/**
 * The log lines of one prediction's work (its `logs`, spec 3, which a poller reads), in two kinds
 * the types tell apart:
 * - `write` is awaited and durable: it resolves once the line is stored, and the work goes on only
 *   then (a stage's end, a cache decision); it rejects with the store's error, which fails the try;
 * - `note` is fire-and-forget progress (a percentage, a post-processing step) that the work never
 *   waits for: it returns nothing and never throws; a line the store refuses (a database outage)
 *   is dropped, since the next one says more.
 */
export interface StageLog {
  write(line: string, fields?: StageLogFields): Promise<void>;
  note(line: string, fields?: StageLogFields): void;
  /**
   * Where recognised text goes as soon as the engine has it (transcribe-recording.ts `onSegment`),
   * for a client that follows the work live (`stream=true`, docs/live.md). Absent: nobody follows.
   * Fire-and-forget like `note`; the text is never written to the logs.
   */
  segment?(segment: EarlySegment): void;
}

/**
 * The StageLog over `write`, the store of one line (it may reject); `note` calls it without waiting
 * and drops its rejection, so a lost progress line never becomes an unhandled rejection.
 */
export function createStageLog(
  write: (line: string, fields?: StageLogFields) => Promise<void>,
  segment?: (segment: EarlySegment) => void,
): StageLog {
  return {
    write,
    note: (line, fields) => void write(line, fields).catch(() => {}),
    ...(segment ? { segment } : {}),
  };
}
