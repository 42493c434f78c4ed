/**
 * TEST FIXTURES ONLY: folders shaped like installed sherpa-onnx models, with placeholder files
 * instead of weights (no model weights exist on the test machines). An `.onnx` placeholder starts
 * like an ONNX protobuf (0x08, ir_version 7) so the file checks pass; loading it fails in
 * sherpa-onnx, which is what the loader error tests need.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { listModelFiles, type CatalogModel } from '../models/model-catalog.ts';

/** Bytes of a placeholder `.onnx` file: ONNX-like header, then text saying what it is. */
export const PLACEHOLDER_ONNX = Buffer.concat([Buffer.from([0x08, 0x07]), Buffer.from(' test placeholder, not a model\n')]);
export const PLACEHOLDER_TOKENS = '<blk> 0\n▁the 1\n▁a 2\n';

/**
 * Writes `<parent>/<model.name>/` with a placeholder for every file the family needs.
 * @param skip file names to leave out (to make a broken install).
 * @returns the model folder.
 */
export async function writePlaceholderModel(parent: string, model: CatalogModel, skip: readonly string[] = []): Promise<string> {
  const directory = path.join(parent, model.name);
  await mkdir(directory, { recursive: true });
  for (const name of listModelFiles(model)) {
    if (skip.includes(name)) continue;
    await writeFile(path.join(directory, name), name.endsWith('.onnx') ? PLACEHOLDER_ONNX : PLACEHOLDER_TOKENS);
  }
  return directory;
}

/** Packs `<parent>/<folder>` into `archive` (.tar.bz2) with Debian's tar, as the release archives are. */
export async function packTarBz2(parent: string, folder: string, archive: string): Promise<void> {
  await promisify(execFile)('tar', ['-cjf', archive, '-C', parent, folder]);
}
