import path from 'node:path';
import { AppError } from '../../platform/errors/app-error.ts';
import { assertModelReady, listInstalledModels, modelFixCommand } from './models/list-installed-models.ts';
import type { CatalogModel } from './models/model-catalog.ts';
import {
  assertPocketsphinxAvailable,
  createPocketsphinxEngine,
  type PocketsphinxOptions,
} from './engines/pocketsphinx/pocketsphinx-engine.ts';
import type { RecognitionEngine } from './recognition-engine.ts';
import { createSherpaOnnxEngine, probeSherpaModel, type SherpaOnnxEngineOptions } from './engines/sherpa-onnx/sherpa-onnx-engine.ts';

/** RECOGNITION_ENGINE values. */
export type RecognitionEngineChoice = 'auto' | 'sherpa-onnx' | 'openai-compatible' | 'pocketsphinx';

export interface SelectRecognitionEngineOptions {
  choice: RecognitionEngineChoice;
  /** MODELS_DIR. */
  modelsDir: string;
  /** SHERPA_MODEL split at commas: catalog names, the first the default; empty = every ready model. */
  sherpaModels?: readonly string[];
  /** Further sherpa-onnx engine settings (threads, timeouts). */
  sherpa?: Omit<SherpaOnnxEngineOptions, 'modelsDir' | 'models'>;
  /** Load the default sherpa-onnx model once in a child process before accepting work (default true). */
  probeSherpa?: boolean;
  /** ASR_BASE_URL, or null / undefined when none is configured. */
  remoteBaseUrl?: string | null;
  /** Makes the remote engine (e.g. `() => createOpenAiAsrEngine({...})`); called only when it is chosen. */
  createRemoteEngine: () => RecognitionEngine;
  pocketsphinx?: PocketsphinxOptions;
}

export interface SelectedRecognitionEngine {
  engine: RecognitionEngine;
  /** One line for the start-up log: which engine and why. */
  reason: string;
}

/**
 * The sherpa-onnx models to use: the named ones (each must be ready), or else every ready catalog
 * model in catalog order. A catalog model folder that is present but broken is an error either way.
 * @throws AppError `engine_unavailable` naming the file and `npm run models -- download NAME`.
 */
async function usableSherpaModels(options: SelectRecognitionEngineOptions): Promise<CatalogModel[]> {
  const named = (options.sherpaModels ?? []).filter((name) => name.trim() !== '');
  if (named.length > 0) {
    return Promise.all(named.map(async (name) => (await assertModelReady(options.modelsDir, name.trim())).model));
  }
  const { models } = await listInstalledModels(options.modelsDir);
  const broken = models.find((report) => report.status === 'broken');
  if (broken) {
    throw new AppError(
      'engine_unavailable',
      `sherpa-onnx model ${broken.model.name} is broken: ${broken.problems.join('; ')}; reinstall it with \`${modelFixCommand(broken.model.name)}\` or remove ${broken.directory}`,
    );
  }
  return models.map((report) => report.model);
}

async function sherpaEngine(
  options: SelectRecognitionEngineOptions,
  models: CatalogModel[],
  why: string,
): Promise<SelectedRecognitionEngine> {
  if (options.probeSherpa ?? true) await probeSherpaModel(options.modelsDir, models[0]!.name, { maxThreads: 1 });
  const engine = createSherpaOnnxEngine({ ...options.sherpa, modelsDir: options.modelsDir, models });
  const names = models.map((model) => model.name).join(', ');
  return { engine, reason: `sherpa-onnx with ${names} (default ${models[0]!.name}): ${why}` };
}

async function pocketsphinxEngine(options: SelectRecognitionEngineOptions, why: string): Promise<SelectedRecognitionEngine> {
  await assertPocketsphinxAvailable(options.pocketsphinx);
  return { engine: createPocketsphinxEngine(options.pocketsphinx), reason: `pocketsphinx: ${why}` };
}

/**
 * Picks the recognition engine and checks it can run before the service takes work.
 * `auto` takes the first available of: sherpa-onnx (a ready model in MODELS_DIR, or SHERPA_MODEL),
 * the OpenAI-compatible remote engine (an ASR base URL is configured), pocketsphinx (English).
 * A named choice must be available. Takes plain options, never the environment.
 * @returns the engine and a one-line reason for the log, e.g.
 *   `pocketsphinx: auto, no sherpa-onnx model in /srv/models and no ASR_BASE_URL`.
 * @throws AppError `engine_unavailable` naming the missing or damaged file (or setting) and the
 *   command that fixes it.
 */
export async function selectRecognitionEngine(options: SelectRecognitionEngineOptions): Promise<SelectedRecognitionEngine> {
  const dir = path.resolve(options.modelsDir);
  if (options.choice === 'pocketsphinx') return pocketsphinxEngine(options, 'RECOGNITION_ENGINE=pocketsphinx');
  if (options.choice === 'openai-compatible') {
    if (!options.remoteBaseUrl) throw new AppError('engine_unavailable', 'RECOGNITION_ENGINE=openai-compatible needs ASR_BASE_URL');
    return { engine: options.createRemoteEngine(), reason: 'openai-compatible: RECOGNITION_ENGINE=openai-compatible' };
  }
  const models = await usableSherpaModels(options);
  if (options.choice === 'sherpa-onnx') {
    if (models.length === 0) {
      throw new AppError(
        'engine_unavailable',
        `RECOGNITION_ENGINE=sherpa-onnx but no model is installed in ${dir}: install one with \`${modelFixCommand('sherpa-onnx-whisper-base')}\` (all models: \`npm run models -- catalog\`)`,
      );
    }
    return sherpaEngine(options, models, 'RECOGNITION_ENGINE=sherpa-onnx');
  }
  if (models.length > 0) return sherpaEngine(options, models, `auto, ready in ${dir}`);
  if (options.remoteBaseUrl) {
    return { engine: options.createRemoteEngine(), reason: `openai-compatible: auto, no sherpa-onnx model in ${dir}, ASR_BASE_URL is set` };
  }
  return pocketsphinxEngine(options, `auto, no sherpa-onnx model in ${dir} and no ASR_BASE_URL`);
}
