import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { encodeWavHeader } from '../decode/encode-wav-header.ts';
import { makeWorkFolder } from '../../platform/work/work-root.ts';
import type { RecognitionEngine, RecognitionSession } from '../recognize/recognition-engine.ts';
import type { ExternalCallCounter } from '../../platform/metrics/count-external-call.ts';

export interface LiveTurn {
  /** The turn's audio, 16 kHz mono samples in [-1, 1]. */
  samples: Float32Array;
  /**
   * The server VAD cut the turn: it starts `prefix_padding_ms` before its speech and ends with it.
   * false: the client's commit ended it (its buffer may hold any amount of silence, as a file does).
   */
  cutByVad?: boolean;
  /** Spec 2.5 language code, or null for the engine's choice. */
  language: string | null;
  /** Free-text hint (OpenAI's `transcription.prompt`), or null. */
  prompt: string | null;
  signal?: AbortSignal;
  metrics?: ExternalCallCounter;
}

/**
 * Recognises one turn (or one piece of a turn) of a live session as one short recording, with any
 * engine, or with a session the engine opened (RecognitionEngine.openSession): the samples are
 * written as a 16 kHz 16-bit WAV into a work folder (made by makeWorkFolder: removed after, swept
 * after a crash) and given to `engine.recognize` as one speech interval spanning the whole turn
 * (the server VAD already cut it, or the client's commit); a VAD-cut turn is marked `tightCut`
 * (PocketSphinx then skips its noise removal).
 * @returns the recognised text, segments joined with spaces ('' when nothing was recognised).
 * @throws what `engine.recognize` throws (AppError `recognition_failed`, `engine_unavailable`,
 *   `invalid_input` for a language the engine lacks); `signal.reason` when aborted.
 */
export async function recognizeTurn(engine: RecognitionEngine | RecognitionSession, turn: LiveTurn): Promise<string> {
  const dir = await makeWorkFolder('live-turn-');
  try {
    const pcm = Buffer.alloc(turn.samples.length * 2);
    for (let i = 0; i < turn.samples.length; i++) {
      pcm.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(turn.samples[i]! * 32768))), 2 * i);
    }
    const wavPath = path.join(dir, 'turn.wav');
    await writeFile(wavPath, Buffer.concat([encodeWavHeader(pcm.length, 16_000), pcm]));
    const durationSeconds = turn.samples.length / 16_000;
    const segments = await engine.recognize({
      wavPath,
      durationSeconds,
      speech: [{ start: 0, end: durationSeconds }],
      language: turn.language,
      prompt: turn.prompt,
      hotwords: [],
      tightCut: turn.cutByVad === true,
      ...(turn.signal ? { signal: turn.signal } : {}),
      ...(turn.metrics ? { metrics: turn.metrics } : {}),
    });
    return segments
      .map((segment) => segment.text.trim())
      .filter((text) => text !== '')
      .join(' ');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
