import type { VadInterval } from '../../contract/output/transcript-model.ts';
import { diarizeBuiltin } from './diarize-builtin.ts';
import { diarizeWithSherpa } from './diarize-with-sherpa.ts';
import { DIARIZATION_INSTALL_COMMAND, locateDiarizationModels, type LocatedDiarizationModels } from './locate-diarization-models.ts';
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
   * Told which diarizer runs and why, once it is chosen (the prediction's logs; describeDiarizer):
   * `diarizer: built-in (no neural diarization model installed; install with …)` or `diarizer:
   * sherpa-onnx (<segmentation model>, <embedding model>): …`. Not called when `speakers` is 1 or there
   * is no speech (no diarizer runs).
   */
  log?: (line: string) => void;
}

/** The diarizer that will run and why (one line for the prediction log, without the `diarizer: …` head). */
export type ChosenDiarizer = ({ kind: 'sherpa' } & LocatedDiarizationModels & { why: string }) | { kind: 'builtin'; why: string };

/**
 * Picks the diarizer: `builtin` always the built-in one; `sherpa` sherpa-onnx or an error; `auto`
 * sherpa-onnx when a segmentation and an embedding model of the catalog are in `modelsDir`, the built-in
 * diarizer when no diarization model is (locateDiarizationModels).
 * @returns the choice and `why`, e.g. `no neural diarization model installed; install with npm run models
 *   -- download diarization`.
 * @throws AppError `engine_unavailable` naming the missing or damaged file (see locateDiarizationModels).
 */
export async function chooseDiarizer(modelsDir: string | null | undefined, engine: DiarizationEngine = 'auto'): Promise<ChosenDiarizer> {
  if (engine === 'builtin') return { kind: 'builtin', why: 'the built-in diarizer was asked for' };
  const located = await locateDiarizationModels(modelsDir, engine === 'sherpa');
  if (located) {
    const why = engine === 'sherpa' ? 'sherpa-onnx was asked for' : 'a neural diarization pair is installed';
    return { kind: 'sherpa', ...located, why };
  }
  const where = modelsDir === null || modelsDir === undefined ? 'no MODELS_DIR' : 'no neural diarization model installed';
  return { kind: 'builtin', why: `${where}; install with ${DIARIZATION_INSTALL_COMMAND}` };
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

/**
 * The log line naming the diarizer and why: `diarizer: built-in (no neural diarization model installed;
 * install with npm run models -- download diarization)` or `diarizer: sherpa-onnx
 * (sherpa-onnx-pyannote-segmentation-3-0, wespeaker_en_voxceleb_resnet34_LM): a neural diarization pair is
 * installed`; the models by catalog name, never by path.
 */
export function describeDiarizer(chosen: ChosenDiarizer): string {
  if (chosen.kind === 'builtin') return `diarizer: built-in (${chosen.why})`;
  return `diarizer: sherpa-onnx (${chosen.names.segmentation}, ${chosen.names.embedding}): ${chosen.why}`;
}
