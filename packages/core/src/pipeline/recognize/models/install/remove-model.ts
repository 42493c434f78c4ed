import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../../platform/errors/app-error.ts';
import { findCatalogModel } from '../model-catalog.ts';
import { removeKeptDownload } from './kept-download.ts';
import { readModelsLock, writeModelsLock } from './models-lock.ts';
import { forgetSelfTest } from './remember-self-test.ts';

/**
 * Deletes `MODELS_DIR/<name>`, any kept download of it (`MODELS_DIR/.downloads/<name>.tar.bz2` and
 * its validator) and its remembered failed self-test.
 * The pin in `models.lock.json` stays (a reinstall must match it, as `npm ci` keeps to
 * package-lock.json) unless `unpin` is true.
 * @returns whether a folder was removed and whether a pin was dropped.
 * @throws AppError `invalid_input` for a name that is not in the catalog (nothing outside the
 *   catalog's folder names is ever deleted); `engine_unavailable` for a damaged lock file.
 */
export async function removeModel(modelsDir: string, name: string, options: { unpin?: boolean } = {}): Promise<{ removed: boolean; unpinned: boolean }> {
  if (!findCatalogModel(name)) throw new AppError('invalid_input', `Unknown model "${name}"; see \`npm run models -- list\``);
  const root = path.resolve(modelsDir);
  const folder = path.join(root, name);
  const removed = await stat(folder).then((info) => info.isDirectory(), () => false);
  await rm(folder, { recursive: true, force: true });
  await removeKeptDownload(path.join(root, '.downloads', `${name}.tar.bz2`));
  await forgetSelfTest(root, name);
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
