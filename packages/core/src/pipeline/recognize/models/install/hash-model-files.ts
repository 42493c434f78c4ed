import { createHash } from 'node:crypto';
import path from 'node:path';
import { sha256OfFile } from '../download-model-archive.ts';
import { listModelFiles, type CatalogModel } from '../model-catalog.ts';

/**
 * One SHA-256 over the files the catalog names for `model` inside `directory`: the SHA-256 of the
 * text made of one line `<sha256 of file>  <file name>\n` per file in catalog order (the format of
 * `sha256sum`, so `sha256sum FILES | sha256sum` by hand gives the same digest when listed in that
 * order). Files the catalog does not name (README, test wavs, fp32 copies) do not count.
 * @returns 64 lowercase hex digits.
 * @throws the file system's error when a named file cannot be read.
 */
export async function hashModelFiles(directory: string, model: CatalogModel): Promise<string> {
  let lines = '';
  for (const name of listModelFiles(model)) lines += `${await sha256OfFile(path.join(directory, name))}  ${name}\n`;
  return createHash('sha256').update(lines).digest('hex');
}
