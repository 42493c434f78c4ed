import path from 'node:path';
import { AppError } from '../../platform/errors/app-error.ts';
import {
  diarizationModelsOf,
  RECOMMENDED_EMBEDDING_MODEL,
  RECOMMENDED_SEGMENTATION_MODEL,
  type DiarizationModelRole,
} from './models/diarization-model-catalog.ts';
import { findFirstUsable, inspectDiarizationModel, type FoundDiarizationModel } from './models/find-installed-diarization-models.ts';

/** The two model files of sherpa-onnx offline speaker diarization. */
export interface DiarizationModels {
  /** A speaker-segmentation model (pyannote segmentation-3.0 or a fine-tune of it) exported by sherpa-onnx. */
  segmentation: string;
  /** A speaker-embedding extractor. */
  embedding: string;
}

/** The pair found in MODELS_DIR: the files and their catalog names. */
export interface LocatedDiarizationModels {
  models: DiarizationModels;
  names: { segmentation: string; embedding: string };
}

/** The command that installs the recommended pair (the CLI's `download diarization`). */
export const DIARIZATION_INSTALL_COMMAND = 'npm run models -- download diarization';

const HOW_TO_FIX =
  `install the pair with \`${DIARIZATION_INSTALL_COMMAND}\` (${RECOMMENDED_SEGMENTATION_MODEL} + ${RECOMMENDED_EMBEDDING_MODEL}; ` +
  'offline: `npm run models -- install FILE`), or remove the diarization models to use the built-in diarizer (docs/diarization.md)';

/**
 * Which neural diarization pair to use, from the catalog's models found in `modelsDir`: for each role the
 * first of the catalog (the recommended one first) that is there and looks like an ONNX model, where `npm
 * run models` installs it (`MODELS_DIR/NAME/FILE`) or, for an embedding model, loose (`MODELS_DIR/NAME.onnx`,
 * as earlier versions of docs/diarization.md said to download it). Never loads a model.
 * @param required true when sherpa-onnx diarization is demanded (no fallback to the built-in diarizer).
 * @returns both files and their names; null when `modelsDir` is null/undefined or holds no diarization
 *   model at all (and `required` is false): the built-in diarizer runs.
 * @throws AppError `engine_unavailable` naming what is wrong (no model of one role, or the damaged file of
 *   a role: not a file, too small, not ONNX) and how to fix it, when only one role is usable or `required`
 *   is true and a role is missing.
 */
export async function locateDiarizationModels(
  modelsDir: string | null | undefined,
  required = false,
): Promise<LocatedDiarizationModels | null> {
  if (modelsDir === null || modelsDir === undefined) {
    if (required) throw new AppError('engine_unavailable', `sherpa-onnx speaker diarization needs a models directory: ${HOW_TO_FIX}`);
    return null;
  }
  const [segmentation, embedding] = await Promise.all([lookFor(modelsDir, 'segmentation'), lookFor(modelsDir, 'embedding')]);
  if (segmentation.usable && embedding.usable) {
    return {
      models: { segmentation: segmentation.usable.path, embedding: embedding.usable.path },
      names: { segmentation: segmentation.usable.model.name, embedding: embedding.usable.model.name },
    };
  }
  const nothing = [segmentation, embedding].every((role) => role.usable === null && role.damaged === null);
  if (nothing && !required) return null;
  const wrong = segmentation.usable ? embedding : segmentation;
  if (wrong.damaged) {
    throw new AppError('engine_unavailable', `Speaker diarization model ${wrong.damaged.path} ${wrong.damaged.problem}: ${HOW_TO_FIX}`);
  }
  const expected = path.join(path.resolve(modelsDir), wrong.recommended.name, wrong.recommended.file);
  throw new AppError('engine_unavailable', `No speaker ${wrong.role} model is installed: ${expected} is missing: ${HOW_TO_FIX}`);
}

/** The first usable model of `role` in `modelsDir`, else the first damaged one found, and the role's recommended model. */
async function lookFor(modelsDir: string, role: DiarizationModelRole) {
  const models = diarizationModelsOf(role);
  const usable = await findFirstUsable(modelsDir, models);
  let damaged: FoundDiarizationModel | null = null;
  if (!usable) {
    for (const model of models) {
      damaged = await inspectDiarizationModel(modelsDir, model);
      if (damaged) break;
    }
  }
  return { role, usable, damaged, recommended: models[0]! };
}
