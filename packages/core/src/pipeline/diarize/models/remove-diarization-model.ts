import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../platform/errors/app-error.ts';
import { removeKeptDownload } from '../../recognize/models/install/kept-download.ts';
import { readModelsLock, writeModelsLock } from '../../recognize/models/install/models-lock.ts';
import { findDiarizationCatalogModel } from './diarization-model-catalog.ts';
import { diarizationDownloadPath } from './install-diarization-models.ts';

/**
 * Deletes the diarization model `name` from `modelsDir`: its folder `NAME/`, a loose `NAME.onnx` put there
 * by hand, and a kept download (`.downloads/NAME.tar.bz2|.onnx` and its validator). The pin in
 * `models.lock.json` stays (a reinstall must match it) unless `unpin`. With its partner still installed
 * the `auto` diarizer then refuses to run (locateDiarizationModels names the missing role).
 * @returns whether a file or folder was removed and whether a pin was dropped.
 * @throws AppError `invalid_input` for a name that is not a diarization model of the catalog;
 *   `engine_unavailable` for a damaged lock file.
 */
export async function removeDiarizationModel(modelsDir: string, name: string, options: { unpin?: boolean } = {}): Promise<{ removed: boolean; unpinned: boolean }> {
  const model = findDiarizationCatalogModel(name);
  if (!model) throw new AppError('invalid_input', `Unknown diarization model "${name}"; see \`npm run models -- catalog\``);
  const root = path.resolve(modelsDir);
  let removed = false;
  for (const entry of [path.join(root, name), ...(model.packaging === 'onnx' ? [path.join(root, `${name}.onnx`)] : [])]) {
    if (await stat(entry).then(() => true, () => false)) removed = true;
    await rm(entry, { recursive: true, force: true });
  }
  await removeKeptDownload(diarizationDownloadPath(root, model));
  let unpinned = false;
  if (options.unpin) {
    const lock = await readModelsLock(root);
    if (lock.models[name]) {
      delete lock.models[name];
      await writeModelsLock(root, lock);
      unpinned = true;
    }
  }
  return { removed, unpinned };
}
