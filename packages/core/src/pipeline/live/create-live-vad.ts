import type { InferenceSession, Tensor } from 'onnxruntime-node';

/** Silero VAD v5 at 16 kHz: 512 new samples per call, with the previous call's last 64 as context (detect-speech.worker.cjs). */
const WINDOW = 512;
const CONTEXT = 64;
const RATE = 16_000;

/** OpenAI's `server_vad` settings (Realtime API reference, RealtimeTranscriptionSessionTurnDetection). */
export interface LiveVadSettings {
  /** Speech probability at which speech starts, 0..1 (OpenAI default 0.5). */
  threshold: number;
  /** Audio kept before the detected start of speech, ms (default 300). */
  prefixPaddingMs: number;
  /** Silence that ends a turn, ms (default 500). */
  silenceDurationMs: number;
  /**
   * Not OpenAI's: a shorter silence inside a turn, ms, after which a `speech_paused` event marks where
   * the turn may be cut into pieces decoded while the speaker goes on (docs/live.md, "Pieces").
   * Absent or ≥ `silenceDurationMs`: no pause events.
   */
  pauseMs?: number;
}

/** What the VAD found in the samples it was given; sample positions count from the session's first sample (16 kHz). */
export type LiveVadEvent =
  /** `at`: the first speech window; `from`: `at` less the prefix padding (where the turn's audio starts). */
  | { type: 'speech_started'; at: number; from: number }
  /**
   * The speech has paused for `pauseMs` without ending the turn: `cut` is the middle of the silence so far
   * (half of it after the last speech window). Once per pause; the turn may still go on.
   */
  | { type: 'speech_paused'; cut: number }
  /** `end`: where the speech ended (before the silence that ended it); `from`: its start less the prefix padding. */
  | { type: 'speech_stopped'; from: number; end: number };

/** One Silero model loaded once per process and shared by every live session (a run is one window of one session). */
export interface SileroModel {
  session: InferenceSession;
  ort: typeof import('onnxruntime-node');
}

/**
 * Loads Silero VAD v5 (`modelPath`, e.g. resolveDefaultVadModelPath()) with onnxruntime-node, one
 * thread: shared by the live sessions of the process; each model call runs on onnxruntime's own
 * thread, off the event loop.
 * @throws Error from onnxruntime when the file is not a loadable model, or not Silero v5.
 */
export async function loadSileroModel(modelPath: string): Promise<SileroModel> {
  const ort = await import('onnxruntime-node');
  const session = await ort.InferenceSession.create(modelPath, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  if (!session.inputNames.includes('state') || !session.inputNames.includes('input')) {
    throw new Error(`${modelPath} is not a Silero VAD v5 model (inputs: ${session.inputNames.join(', ')})`);
  }
  return { session, ort };
}

/** A streaming voice-activity detector of one live session. */
export interface LiveVad {
  /**
   * Scores the new 16 kHz samples window by window (in order; calls must not overlap) and returns
   * the turn events they contain. Samples short of a window wait for the next call.
   */
  push(samples: Float32Array): Promise<LiveVadEvent[]>;
  /** Forgets the speech in progress (after `input_audio_buffer.clear`); positions keep counting. */
  reset(): void;
  /** Samples given so far (16 kHz). */
  readonly samples: number;
}

/**
 * A streaming Silero VAD with OpenAI's server_vad rules: speech starts at the first window whose
 * probability reaches `threshold`; it stops once the probability has stayed below `threshold − 0.15`
 * (Silero's own hysteresis, snakers4/silero-vad `get_speech_timestamps`' neg_threshold) for
 * `silenceDurationMs`. The stopped turn spans from its start less `prefixPaddingMs` to the end of
 * its last speech window. With `pauseMs`, a silence of that length inside a turn is reported once
 * (`speech_paused`), so the caller can decode the turn piece by piece while it goes on.
 */
export function createLiveVad(model: SileroModel, settings: LiveVadSettings): LiveVad {
  const { ort, session } = model;
  const sr = new ort.Tensor('int64', BigInt64Array.from([BigInt(RATE)]));
  let state: Float32Array = new Float32Array(2 * 128);
  let context = new Float32Array(CONTEXT);
  let pending = new Float32Array(0);
  let consumed = 0; // samples scored so far
  let given = 0;
  let speechStart: number | null = null;
  let lastSpeechEnd = 0;
  let paused = false;
  const silenceSamples = Math.round((settings.silenceDurationMs / 1000) * RATE);
  const padSamples = Math.round((settings.prefixPaddingMs / 1000) * RATE);
  const negative = Math.max(0.01, settings.threshold - 0.15);
  const pauseSamples =
    settings.pauseMs !== undefined && settings.pauseMs < settings.silenceDurationMs ? Math.round((settings.pauseMs / 1000) * RATE) : null;
  return {
    get samples() {
      return given;
    },
    reset() {
      speechStart = null;
    },
    async push(samples) {
      given += samples.length;
      const joined = new Float32Array(pending.length + samples.length);
      joined.set(pending);
      joined.set(samples, pending.length);
      const events: LiveVadEvent[] = [];
      let offset = 0;
      for (; offset + WINDOW <= joined.length; offset += WINDOW) {
        const input = new Float32Array(CONTEXT + WINDOW);
        input.set(context);
        input.set(joined.subarray(offset, offset + WINDOW), CONTEXT);
        context = input.slice(WINDOW);
        const result = await session.run({
          input: new ort.Tensor('float32', input, [1, CONTEXT + WINDOW]),
          state: new ort.Tensor('float32', state, [2, 1, 128]),
          sr,
        });
        const probability = (result[session.outputNames[0]!] as Tensor).data[0] as number;
        state = (result[session.outputNames[1]!] as Tensor).data as Float32Array;
        const start = consumed;
        consumed += WINDOW;
        if (speechStart === null) {
          if (probability >= settings.threshold) {
            speechStart = start;
            lastSpeechEnd = consumed;
            paused = false;
            events.push({ type: 'speech_started', at: start, from: Math.max(0, start - padSamples) });
          }
        } else if (probability >= negative) {
          lastSpeechEnd = consumed;
          paused = false;
        } else if (consumed - lastSpeechEnd >= silenceSamples) {
          events.push({ type: 'speech_stopped', from: Math.max(0, speechStart - padSamples), end: lastSpeechEnd });
          speechStart = null;
        } else if (pauseSamples !== null && !paused && consumed - lastSpeechEnd >= pauseSamples) {
          paused = true;
          events.push({ type: 'speech_paused', cut: lastSpeechEnd + Math.floor((consumed - lastSpeechEnd) / 2) });
        }
      }
      pending = joined.slice(offset);
      return events;
    },
  };
}
