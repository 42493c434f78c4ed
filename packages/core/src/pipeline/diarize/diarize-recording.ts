import { basename, dirname } from 'node:path';
import type { VadInterval } from '../../contract/output/transcript-model.ts';
import { diarizeBuiltin } from './diarize-builtin.ts';
import { diarizeWithSherpa } from './diarize-with-sherpa.ts';
import { locateDiarizationModels, type DiarizationModels } from './locate-diarization-models.ts';
import { speakerLabel, type SpeakerTurn } from './speaker-turn.ts';

/** `auto`: sherpa-onnx when its model files are in the models directory, else built-in. */
export type DiarizationEngine = 'auto' | 'builtin' | 'sherpa';

export interface DiarizeRecordingInput {
  /** 16 kHz mono 16-bit WAV file (pipeline/decode/decode-to-pcm.ts). */
  wavPath: string;
  /** Speech intervals from detectSpeech, seconds. */
  speech: readonly VadInterval[];
  /**
   * Quiet speech from the same VAD pass (detectSpeechLevels with `quietThreshold` QUIET_SPEECH_ONSET), which
   * the built-in diarizer labels too (addQuietSpeech); absent: none, only `speech` is labelled.
   */
  quietSpeech?: readonly VadInterval[];
  /** Spec 2.2 `speakers`: the number of speakers, or null to estimate it. */
  speakers: number | null;
  /** MODELS_DIR, where the sherpa-onnx diarization models may be (locate-diarization-models.ts). */
  modelsDir?: string | null;
  /** Default `auto`. */
  engine?: DiarizationEngine;
  signal?: AbortSignal;
  /**
   * Told which diarizer runs, once it is chosen (the prediction's logs): `diarizer: built-in` or
   * `diarizer: sherpa-onnx (<segmentation model>, <embedding model>)`. Not called when `speakers` is 1
   * or there is no speech (no diarizer runs).
   */
  log?: (line: string) => void;
}

/** The diarizer that will run, for the prediction log. */
export type ChosenDiarizer = { kind: 'sherpa'; models: DiarizationModels } | { kind: 'builtin' };

/**
 * Picks the diarizer: `builtin` always the built-in one; `sherpa` sherpa-onnx or an error; `auto`
 * sherpa-onnx when both model files are in `modelsDir`, the built-in diarizer when neither is.
 * @throws AppError `engine_unavailable` naming the missing file (see locateDiarizationModels).
 */
export async function chooseDiarizer(modelsDir: string | null | undefined, engine: DiarizationEngine = 'auto'): Promise<ChosenDiarizer> {
  if (engine === 'builtin') return { kind: 'builtin' };
  const models = await locateDiarizationModels(modelsDir, engine === 'sherpa');
  return models === null ? { kind: 'builtin' } : { kind: 'sherpa', models };
}

/**
 * Who spoke when, whichever recognition engine ran. `speakers` 1 labels all speech `SPEAKER_1`
 * without running a diarizer; otherwise chooseDiarizer decides.
 * @returns turns `{start, end, speaker}` in seconds, labels `SPEAKER_1`, `SPEAKER_2`, … numbered by first
 *   appearance, sorted by start; [] when there is no speech. The built-in diarizer also labels the parts of
 *   `quietSpeech` between the `speech` intervals (add-quiet-speech.ts); `speakers` is an upper limit for it.
 * @throws AppError `engine_unavailable` (model files missing or broken), `media_unreadable`,
 *   `recognition_failed`; `signal.reason` when aborted.
 */
export async function diarizeRecording(input: DiarizeRecordingInput): Promise<SpeakerTurn[]> {
  input.signal?.throwIfAborted();
  if (input.speech.length === 0) return [];
  if (input.speakers === 1) return input.speech.map((region) => ({ start: region.start, end: region.end, speaker: speakerLabel(0) }));
  const chosen = await chooseDiarizer(input.modelsDir, input.engine);
  input.log?.(describeDiarizer(chosen));
  if (chosen.kind === 'sherpa') {
    return diarizeWithSherpa({ wavPath: input.wavPath, models: chosen.models, speakers: input.speakers, signal: input.signal });
  }
  return diarizeBuiltin({
    wavPath: input.wavPath,
    speech: input.speech,
    speakers: input.speakers,
    signal: input.signal,
    quietSpeech: input.quietSpeech ?? [],
  });
}

/** The log line naming the diarizer: the models' file names (the segmentation model with its folder), never the full path. */
function describeDiarizer(chosen: ChosenDiarizer): string {
  if (chosen.kind === 'builtin') return 'diarizer: built-in';
  const segmentation = `${basename(dirname(chosen.models.segmentation))}/${basename(chosen.models.segmentation)}`;
  return `diarizer: sherpa-onnx (${segmentation}, ${basename(chosen.models.embedding)})`;
}
