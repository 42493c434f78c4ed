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
  /** Not OpenAI's: where to cut a turn into pieces decoded while the speaker goes on (absent: no `speech_paused`). */
  pieces?: LivePieceSettings;
}

/** How a turn is cut into pieces (docs/live.md, "Pieces"); lengths in ms. */
export interface LivePieceSettings {
  /** A silence inside the turn this long (below `threshold − 0.15`, shorter than `silenceDurationMs`) is a cut, in its middle. */
  pauseMs: number;
  /** No piece shorter than this. */
  minMs: number;
  /**
   * A piece that reaches this length without such a pause is cut at its window of lowest speech
   * probability past `minMs` (a gap between words, as Silero hears it).
   */
  maxMs: number;
}

/** What the VAD found in the samples it was given; sample positions count from the session's first sample (16 kHz). */
export type LiveVadEvent =
  /** `at`: the first speech window; `from`: `at` less the prefix padding (where the turn's audio starts). */
  | { type: 'speech_started'; at: number; from: number }
  /**
   * A place to cut the turn into pieces (`pieces`), the turn going on: the middle of a pause of
   * `pauseMs` so far, or, in a piece that reached `maxMs`, the middle of its least speech-like window.
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
 * its last speech window. With `pieces`, places to cut the turn are reported as it goes on
 * (`speech_paused`, LivePieceSettings), so the caller can decode it piece by piece.
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
  let pieceFrom = 0; // where the current piece starts (samples)
  let low: { at: number; probability: number } | null = null; // the piece's least speech-like window past minMs
  const silenceSamples = Math.round((settings.silenceDurationMs / 1000) * RATE);
  const padSamples = Math.round((settings.prefixPaddingMs / 1000) * RATE);
  const negative = Math.max(0.01, settings.threshold - 0.15);
  const toSamples = (ms: number) => Math.round((ms / 1000) * RATE);
  const pieces = settings.pieces
    ? {
        pause: toSamples(Math.min(settings.pieces.pauseMs, settings.silenceDurationMs - 1)),
        min: toSamples(settings.pieces.minMs),
        max: toSamples(settings.pieces.maxMs),
      }
    : null;
  const cutAt = (cut: number, events: LiveVadEvent[]) => {
    events.push({ type: 'speech_paused', cut });
    pieceFrom = cut;
    low = null;
  };
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
            pieceFrom = Math.max(0, start - padSamples);
            low = null;
            events.push({ type: 'speech_started', at: start, from: pieceFrom });
          }
          continue;
        }
        if (probability >= negative) {
          lastSpeechEnd = consumed;
          paused = false;
        } else if (consumed - lastSpeechEnd >= silenceSamples) {
          events.push({ type: 'speech_stopped', from: Math.max(0, speechStart - padSamples), end: lastSpeechEnd });
          speechStart = null;
          continue;
        }
        if (!pieces) continue;
        const pauseCut = lastSpeechEnd + Math.floor((consumed - lastSpeechEnd) / 2);
        if (!paused && consumed - lastSpeechEnd >= pieces.pause && pauseCut - pieceFrom >= pieces.min) {
          paused = true;
          cutAt(pauseCut, events);
          continue;
        }
        const middle = start + WINDOW / 2;
        if (middle - pieceFrom >= pieces.min && (low === null || probability < low.probability)) low = { at: middle, probability };
        if (consumed - pieceFrom >= pieces.max && low !== null) cutAt(low.at, events);
      }
      pending = joined.slice(offset);
      return events;
    },
  };
}
