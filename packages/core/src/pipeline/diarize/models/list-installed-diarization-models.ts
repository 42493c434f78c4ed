import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { DIARIZATION_MODEL_CATALOG, findDiarizationCatalogModel } from './diarization-model-catalog.ts';
import { inspectDiarizationModel, type FoundDiarizationModel } from './find-installed-diarization-models.ts';
import type { DiarizationInstallRecord } from './install-diarization-models.ts';

/** One diarization model present in MODELS_DIR. */
export interface InstalledDiarizationReport extends FoundDiarizationModel {
  /** Size of its ONNX file, bytes (0 when missing). */
  bytes: number;
  /** Its `.install.json` (folder layout installed by `npm run models`), or null (put there by hand). */
  install: DiarizationInstallRecord | null;
}

/**
 * The catalog's diarization models present in `modelsDir`, in catalog order (segmentation first, the
 * recommended one first in each role), usable or damaged (`problem`), with their install record. A
 * missing MODELS_DIR lists nothing.
 */
export async function listInstalledDiarizationModels(modelsDir: string): Promise<InstalledDiarizationReport[]> {
  const reports: InstalledDiarizationReport[] = [];
  for (const model of DIARIZATION_MODEL_CATALOG) {
    const found = await inspectDiarizationModel(modelsDir, model);
    if (!found) continue;
    const bytes = await stat(found.path).then((info) => (info.isFile() ? info.size : 0), () => 0);
    reports.push({ ...found, bytes, install: found.layout === 'folder' ? await readRecord(path.dirname(found.path)) : null });
  }
  return reports;
}

/** Whether the MODELS_DIR entry `entry` is a diarization model of the catalog: its folder `NAME` or a loose `NAME.onnx`. */
export function isDiarizationModelEntry(entry: string): boolean {
  return findDiarizationCatalogModel(entry.replace(/\.onnx$/, '')) !== undefined;
}

async function readRecord(directory: string): Promise<DiarizationInstallRecord | null> {
  try {
    return JSON.parse(await readFile(path.join(directory, '.install.json'), 'utf8')) as DiarizationInstallRecord;
  } catch {
    return null;
  }
}

