import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../platform/errors/app-error.ts';
import { findCatalogModel, listModelFiles, MODEL_CATALOG, type CatalogModel } from './model-catalog.ts';
import { MODELS_LOCK_FILE } from './install/models-lock.ts';

/** What the self-test found; stored in `.install.json` and shown by `npm run models -- list`. */
export interface SelfTestResult {
  /** True when the transcript is not empty and its WER is at most SELF_TEST_MAX_WER. */
  passed: boolean;
  /** Word error rate against the reference text, 0..∞ (insertions can push it over 1); null when decoding failed. */
  wer: number | null;
  /** Decoding time / audio duration (wall clock, model loading included); null when decoding failed. */
  realTimeFactor: number | null;
  /** Seconds of audio decoded. */
  audioSeconds: number;
  /** What the model heard (joined segment texts), '' when nothing. */
  text: string;
  /** Why it failed, one line, or null when it passed. */
  reason: string | null;
  /** ISO 8601 time of the test. */
  testedAt: string;
}

/**
 * What install-model.ts writes beside the model files (`.install.json`). Records written before
 * installs had a lock file and a self-test hold only `archiveUrl`, `sha256`, `installedAt` (and a
 * `verified` flag), so the later fields are optional for readers.
 */
export interface InstallRecord {
  /** Where it came from: the release (or a mirror), a local archive, a local folder. */
  source?: 'release' | 'archive' | 'folder';
  /** The archive's URL (`file://` for a local archive or folder). */
  archiveUrl: string;
  /** SHA-256 of the archive (64 hex digits), or null for a folder install. */
  sha256: string | null;
  /** SHA-256 over the model files the catalog names (models-install/hash-model-files.ts). */
  contentSha256?: string;
  /** Archive size (folder: model files), bytes. */
  bytes?: number;
  /** ISO 8601 time of the install. */
  installedAt: string;
  /** The self-test run before activation (models-install/run-model-self-test.ts). */
  selfTest?: SelfTestResult;
  /** True when the self-test failed and `--force` activated the model anyway. */
  forced?: boolean;
}

/** The state of one catalog model in MODELS_DIR. */
export interface InstalledModelReport {
  model: CatalogModel;
  /** `MODELS_DIR/<name>`. */
  directory: string;
  /** ready: every file present and plausible; broken: folder present, a file missing or damaged; absent: no folder. */
  status: 'ready' | 'broken' | 'absent';
  /** One line per problem, naming the file, e.g. `/models/x/tokens.txt is missing`. */
  problems: string[];
  /** Bytes of the model's files that exist. */
  bytes: number;
  /** The install record, or null (absent, or installed by hand). */
  install: InstallRecord | null;
}

export const INSTALL_RECORD_FILE = '.install.json';

/** The command that installs or repairs model `name`, for error messages. */
export function modelFixCommand(name: string): string {
  return `npm run models -- download ${name}`;
}

/**
 * Checks one model file: a regular non-empty file; an `.onnx` file must start like an ONNX
 * protobuf (`0x08` then an `ir_version` of 1..30), as locate-vad-model.ts checks the VAD model.
 * @returns [problem or null, size in bytes].
 */
async function inspectFile(file: string): Promise<[string | null, number]> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return [`${file} is missing`, 0];
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return [`${file} is not a file`, 0];
    if (stats.size === 0) return [`${file} is empty`, 0];
    if (!file.endsWith('.onnx')) return [null, stats.size];
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    const irVersion = head[1] ?? 0;
    const onnx = head[0] === 0x08 && irVersion >= 1 && irVersion <= 30;
    return [onnx ? null : `${file} is not an ONNX model`, stats.size];
  } finally {
    await handle.close();
  }
}

async function readInstallRecord(directory: string): Promise<InstallRecord | null> {
  try {
    return JSON.parse(await readFile(path.join(directory, INSTALL_RECORD_FILE), 'utf8')) as InstallRecord;
  } catch {
    return null;
  }
}

/** Inspects `MODELS_DIR/<model.name>`: every file the family needs (never loads the model). */
export async function inspectInstalledModel(modelsDir: string, model: CatalogModel): Promise<InstalledModelReport> {
  const directory = path.join(path.resolve(modelsDir), model.name);
  const report: InstalledModelReport = { model, directory, status: 'absent', problems: [], bytes: 0, install: null };
  const exists = await stat(directory).then((info) => info.isDirectory(), () => false);
  if (!exists) return report;
  for (const name of listModelFiles(model)) {
    const [problem, bytes] = await inspectFile(path.join(directory, name));
    if (problem) report.problems.push(problem);
    report.bytes += bytes;
  }
  report.status = report.problems.length === 0 ? 'ready' : 'broken';
  report.install = await readInstallRecord(directory);
  return report;
}

/**
 * Lists what MODELS_DIR holds: every catalog model whose folder exists (ready or broken), in
 * catalog order, and the names of other entries (not from the catalog; ignored by the engine).
 * Names starting with `.` (downloads, staging) and the lock file `models.lock.json` are skipped. A missing MODELS_DIR lists nothing.
 */
export async function listInstalledModels(modelsDir: string): Promise<{ models: InstalledModelReport[]; unknown: string[] }> {
  let entries: string[];
  try {
    entries = await readdir(modelsDir);
  } catch {
    return { models: [], unknown: [] };
  }
  const reports = await Promise.all(MODEL_CATALOG.map((model) => inspectInstalledModel(modelsDir, model)));
  const unknown = entries.filter((entry) => !entry.startsWith('.') && entry !== MODELS_LOCK_FILE && !findCatalogModel(entry)).sort();
  return { models: reports.filter((report) => report.status !== 'absent'), unknown };
}

/**
 * Start-up check of one model by name: known to the catalog, folder present, every file plausible.
 * @returns the report (status `ready`).
 * @throws AppError `engine_unavailable` naming the missing or damaged file and the command that
 *   fixes it (`npm run models -- download NAME`); for an unknown name, the catalog's names.
 */
export async function assertModelReady(modelsDir: string, name: string): Promise<InstalledModelReport> {
  const model = findCatalogModel(name);
  if (!model) {
    const names = MODEL_CATALOG.map((entry) => entry.name).join(', ');
    throw new AppError('engine_unavailable', `Unknown sherpa-onnx model "${name}"; the catalog has: ${names} (see \`npm run models -- catalog\`)`);
  }
  const report = await inspectInstalledModel(modelsDir, model);
  if (report.status === 'absent') {
    throw new AppError('engine_unavailable', `sherpa-onnx model ${name} is not installed: ${report.directory} is missing; install it with \`${modelFixCommand(name)}\` (MODELS_DIR=${path.resolve(modelsDir)})`);
  }
  if (report.status === 'broken') {
    throw new AppError('engine_unavailable', `sherpa-onnx model ${name} is broken: ${report.problems.join('; ')}; reinstall it with \`${modelFixCommand(name)}\``);
  }
  return report;
}
