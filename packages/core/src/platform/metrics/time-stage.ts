/**
 * The stages of a prediction's work that are timed (PredictionMetrics.stage): `download` (a link's
 * bytes fetched; not for uploads or stored downloads), `decode` (ffmpeg to 16 kHz mono PCM),
 * `vad` (voice-activity detection), `recognition` (the engine on the speech), `diarization` (speaker turns, which run alongside
 * recognition) and `post_processing` (every requested LLM type, all at once).
 */
export type PipelineStage = 'download' | 'decode' | 'vad' | 'recognition' | 'diarization' | 'post_processing';

/**
 * The part of PredictionMetrics (service-context.ts) that times stages; its own type here so that
 * pipeline code need not import the service context.
 */
export interface StageObserver {
  /** `stage` ended successfully after `seconds` (wall clock). */
  stage?(stage: PipelineStage, seconds: number): void;
}

/** A running stage (startStage). */
export interface StageClock {
  /**
   * Ends the stage: the first call reports its seconds to the observer and returns them; later
   * calls report nothing and return the same seconds (so a log line can read what was reported).
   */
  done(): number;
}

/**
 * Starts timing `stage` now (monotonic clock, `performance.now()`). Call `done()` only when the
 * stage succeeded: a failed or canceled stage is not reported, so the histogram describes work that
 * finished rather than mixing in how long something took to fail. Never throws (an observer that
 * throws is ignored: metrics must not change what a prediction does).
 * @param metrics `ctx.metrics` or undefined (only the seconds are returned).
 * @example
 * const clock = startStage(ctx.metrics, 'decode');
 * await decodeToPcm(…);
 * await log('decoded …', { seconds: clock.done() });
 */
export function startStage(metrics: StageObserver | undefined, stage: PipelineStage): StageClock {
  const startedAt = performance.now();
  let seconds: number | null = null;
  return {
    done() {
      if (seconds !== null) return seconds;
      seconds = (performance.now() - startedAt) / 1000;
      try {
        metrics?.stage?.(stage, seconds);
      } catch {
        // metrics must never change what a prediction does
      }
      return seconds;
    },
  };
}
