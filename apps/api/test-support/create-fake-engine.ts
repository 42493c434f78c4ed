import { setTimeout as sleep } from 'node:timers/promises';
import { basename, dirname } from 'node:path';
import type { RecognitionEngine, RecognizedSegment } from '@transcribe/core';

/** What a test or the load script can read back from the fake engine of this process. */
export interface FakeEngineStats {
  /** Recognitions started so far, and how many ran at the same time at most. */
  calls: number;
  maxActive: number;
  active: number;
}

export interface FakeEngine extends RecognitionEngine {
  readonly stats: FakeEngineStats;
}

/** The fixed words every fake recognition returns, one word per 0.5 s from the first speech interval. */
export const FAKE_ENGINE_TEXT = 'fake engine transcript';

/** How the fake engine ends the process when asked to (FAKE_ENGINE_CRASH; crash tests only). */
export type FakeEngineCrash = 'exit' | 'throw';

/**
 * A recognition engine double for load and fault tests ONLY: no model, no CPU. It waits
 * `delayMs` (0 = answers at once; honours the abort signal), then returns one segment with
 * FAKE_ENGINE_TEXT over the first speech interval. Each call prints one line
 * `[fake-engine] recognize <predictionId>` (from the work directory's name), so tests can count runs.
 * With `crash`, each call prints that line and then ends the whole process instead of answering:
 * `exit` calls process.exit(1), `throw` throws an exception nothing catches (from a timer, so the
 * pipeline's own error handling never sees it); the promise never settles.
 * Only selectable through select-engine.ts when NODE_ENV=test or ALLOW_FAKE_ENGINE=1 (`crash` only
 * with NODE_ENV=test); it lives outside the production `src/` and is loaded by a dynamic import only when selected.
 */
export function createFakeEngine(options: { delayMs: number; crash?: FakeEngineCrash | undefined }): FakeEngine {
  const stats: FakeEngineStats = { calls: 0, maxActive: 0, active: 0 };
  return {
    name: 'fake',
    languages: 'any',
    defaultLanguage: 'en',
    stats,
    async recognize(request): Promise<RecognizedSegment[]> {
      stats.calls += 1;
      stats.active += 1;
      stats.maxActive = Math.max(stats.maxActive, stats.active);
      // The work directory is `<predictionId>-<attempt>` (run-prediction.ts).
      console.log(`[fake-engine] recognize ${basename(dirname(request.wavPath)).replace(/-[0-9a-f]+$/, '')}`);
      if (options.crash === 'exit') process.exit(1);
      if (options.crash === 'throw') {
        setImmediate(() => {
          throw new Error('fake engine: crash requested by FAKE_ENGINE_CRASH');
        });
        return new Promise<never>(() => {});
      }
      try {
        if (options.delayMs > 0) await sleep(options.delayMs, undefined, { signal: request.signal });
        request.onProgress?.(1);
        return [fixedSegment(request.speech[0] ?? { start: 0, end: request.durationSeconds })];
      } finally {
        stats.active -= 1;
      }
    },
  };
}

function fixedSegment(interval: { start: number; end: number }): RecognizedSegment {
  const words = FAKE_ENGINE_TEXT.split(' ').map((text, i) => {
    const start = Math.min(interval.start + i * 0.5, interval.end);
    return { start, end: Math.min(start + 0.4, interval.end), text, confidence: null };
  });
  return { start: interval.start, end: interval.end, text: FAKE_ENGINE_TEXT, words, language: null };
}

/**
 * RECOGNITION_ENGINE=fake as select-engine.ts calls it once its guard allowed the double
 * (assertFakeEngineAllowed): logs the choice and makes the double with FAKE_ENGINE_DELAY_MS and
 * FAKE_ENGINE_CRASH.
 */
export function selectFakeEngine(env: { FAKE_ENGINE_DELAY_MS: number; FAKE_ENGINE_CRASH?: FakeEngineCrash | undefined }): FakeEngine {
  const crash = env.FAKE_ENGINE_CRASH ? `, ends the process by ${env.FAKE_ENGINE_CRASH} in every recognition` : '';
  console.log(`[recognition] engine fake (test double, ${env.FAKE_ENGINE_DELAY_MS} ms per recognition${crash})`);
  return createFakeEngine({ delayMs: env.FAKE_ENGINE_DELAY_MS, crash: env.FAKE_ENGINE_CRASH });
}
