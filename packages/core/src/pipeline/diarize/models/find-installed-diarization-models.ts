import { stat } from 'node:fs/promises';
import path from 'node:path';
import { checkOnnxFile } from './check-onnx-file.ts';
import { diarizationModelsOf, type DiarizationCatalogModel } from './diarization-model-catalog.ts';

/** A diarization model's ONNX file found in MODELS_DIR. */
export interface FoundDiarizationModel {
  model: DiarizationCatalogModel;
  /** Absolute path of the ONNX file sherpa-onnx loads. */
  path: string;
  /**
   * `folder`: `MODELS_DIR/<name>/<file>`, where `npm run models` installs it (and where the segmentation
   * release archive unpacks by hand); `loose`: `MODELS_DIR/<name>.onnx`, an embedding model downloaded by
   * hand as earlier versions of docs/diarization.md said.
   */
  layout: 'folder' | 'loose';
  /** null when the file looks like an ONNX model (checkOnnxFile); else what is wrong, e.g. `is too small (12 bytes)`. */
  problem: string | null;
}

/**
 * Looks for `model` in `modelsDir`: its folder first, then (embedding models only) the loose file.
 * Never loads the model.
 * @returns the file and whether it looks usable, or null when neither place holds it (or `modelsDir` does not exist).
 */
export async function inspectDiarizationModel(modelsDir: string, model: DiarizationCatalogModel): Promise<FoundDiarizationModel | null> {
  const root = path.resolve(modelsDir);
  const folder = path.join(root, model.name);
  if (await stat(folder).then((info) => info.isDirectory(), () => false)) {
    const file = path.join(folder, model.file);
    return { model, path: file, layout: 'folder', problem: await checkOnnxFile(file) };
  }
  if (model.packaging !== 'onnx') return null;
  const loose = path.join(root, `${model.name}.onnx`);
  const problem = await checkOnnxFile(loose);
  return problem === 'is missing' ? null : { model, path: loose, layout: 'loose', problem };
}

/**
 * The speaker-embedding model the service uses, for diarization and for telling speakers apart by
 * their voice: the first of the catalog's embedding models (DIARIZATION_MODEL_CATALOG, the recommended
 * one first) whose ONNX file is in `modelsDir` and looks like an ONNX model, either where `npm run
 * models -- download NAME` puts it (`MODELS_DIR/NAME/NAME.onnx`) or loose (`MODELS_DIR/NAME.onnx`, as
 * downloaded by hand). A damaged file is passed over (`npm run models -- list` reports it). Load it with
 * sherpa-onnx-node's `SpeakerEmbeddingExtractor({ model: found.path })`: all of the catalog's embedding
 * models are 16 kHz sherpa-onnx exports (their `framework` metadata tells sherpa-onnx how to compute
 * the features).
 * @param modelsDir MODELS_DIR; a missing folder finds nothing.
 * @returns the catalog entry (name, published figures) and the absolute path of its `.onnx` file, or null
 *   when no embedding model is installed (install one with `npm run models -- download
 *   wespeaker_en_voxceleb_resnet34_LM`).
 * @example
 * const found = await findInstalledSpeakerEmbeddingModel(env.MODELS_DIR);
 * if (found) new sherpa.SpeakerEmbeddingExtractor({ model: found.path, numThreads: 1 });
 */
export async function findInstalledSpeakerEmbeddingModel(
  modelsDir: string,
): Promise<{ model: DiarizationCatalogModel; path: string } | null> {
  const found = await findFirstUsable(modelsDir, diarizationModelsOf('embedding'));
  return found ? { model: found.model, path: found.path } : null;
}

/** The first of `models` (in order) whose file is in `modelsDir` and looks usable; null when none is. */
export async function findFirstUsable(modelsDir: string, models: readonly DiarizationCatalogModel[]): Promise<FoundDiarizationModel | null> {
  for (const model of models) {
    const found = await inspectDiarizationModel(modelsDir, model);
    if (found && found.problem === null) return found;
  }
  return null;
}
