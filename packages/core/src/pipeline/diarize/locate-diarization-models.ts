import { open } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../platform/errors/app-error.ts';

/** The two model files of sherpa-onnx offline speaker diarization. */
export interface DiarizationModels {
  /** pyannote segmentation-3.0 exported by sherpa-onnx. */
  segmentation: string;
  /** A speaker-embedding extractor. */
  embedding: string;
}

/**
 * Where the models go inside MODELS_DIR, under the names of the official sherpa-onnx releases:
 * `speaker-segmentation-models/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2` (unpacked) and
 * `speaker-recongition-models/3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx` (sic).
 */
export const DIARIZATION_MODEL_FILES = {
  segmentation: path.join('sherpa-onnx-pyannote-segmentation-3-0', 'model.onnx'),
  embedding: '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx',
} as const;

const HOW_TO_FIX =
  'download https://github.com/k2-fsa/sherpa-onnx/releases/download/speaker-segmentation-models/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2 ' +
  '(unpack it there) and https://github.com/k2-fsa/sherpa-onnx/releases/download/speaker-recongition-models/3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx ' +
  'into the models directory, or remove both to use the built-in diarizer (docs/diarization.md)';

/** Smallest plausible model: the segmentation model is 5.9 MB, the embedding model 38 MB. */
const MIN_MODEL_BYTES = 64 * 1024;

/**
 * Which diarizer to use, from the model files found in `modelsDir`.
 * @param required true when sherpa-onnx diarization is demanded (no fallback to the built-in diarizer).
 * @returns both model paths when both files are there; null when `modelsDir` is null/undefined or holds
 *   neither file (and `required` is false): the built-in diarizer runs.
 * @throws AppError `engine_unavailable` naming the missing or broken file (not a file, too small, not ONNX)
 *   and how to fix it, when only one of the files is there or `required` is true and one is missing.
 */
export async function locateDiarizationModels(modelsDir: string | null | undefined, required = false): Promise<DiarizationModels | null> {
  if (modelsDir === null || modelsDir === undefined) {
    if (required) throw new AppError('engine_unavailable', `sherpa-onnx speaker diarization needs a models directory: ${HOW_TO_FIX}`);
    return null;
  }
  const models = {
    segmentation: path.join(modelsDir, DIARIZATION_MODEL_FILES.segmentation),
    embedding: path.join(modelsDir, DIARIZATION_MODEL_FILES.embedding),
  };
  const problems = await Promise.all([checkOnnxFile(models.segmentation), checkOnnxFile(models.embedding)]);
  const missing = problems.filter((problem) => problem === 'is missing').length;
  if (missing === 2 && !required) return null;
  const broken = problems.findIndex((problem) => problem !== null);
  if (broken === -1) return models;
  const file = broken === 0 ? models.segmentation : models.embedding;
  throw new AppError('engine_unavailable', `Speaker diarization model ${file} ${problems[broken]}: ${HOW_TO_FIX}`);
}

/**
 * Whether `file` looks like an ONNX model: a regular file of at least 64 KiB starting like a protobuf
 * ModelProto (tag 0x08, then an ir_version of 1..30). Never loads it.
 * @returns null when it does; else why not (`is missing`, `is not a file`, `is too small (N bytes)`, `is not an ONNX model`).
 */
export async function checkOnnxFile(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return 'is missing';
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return 'is not a file';
    if (stats.size < MIN_MODEL_BYTES) return `is too small (${stats.size} bytes)`;
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    return head[0] === 0x08 && head[1]! >= 1 && head[1]! <= 30 ? null : 'is not an ONNX model';
  } finally {
    await handle.close();
  }
}
