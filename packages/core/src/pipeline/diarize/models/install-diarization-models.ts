import { createHash } from 'node:crypto';
import { copyFile, cp, lstat, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AppError } from '../../../platform/errors/app-error.ts';
import { downloadModelArchive, sha256OfFile } from '../../recognize/models/download-model-archive.ts';
import { isSha256Hex, type InstallStage, type ModelSource } from '../../recognize/models/install-model.ts';
import { checkSourceFolder, checkUnpackedTree, relinkAbsoluteLinks, UNPACK_LIMITS } from '../../recognize/models/install/check-unpacked-tree.ts';
import { claimInstallSlot } from '../../recognize/models/install/claim-install-slot.ts';
import { extractTarBz2 } from '../../recognize/models/install/extract-tar-bz2.ts';
import { removeKeptDownload } from '../../recognize/models/install/kept-download.ts';
import { checkAgainstPin, modelsLockPath, readModelsLock, writeModelsLock } from '../../recognize/models/install/models-lock.ts';
import { checkOnnxFile } from './check-onnx-file.ts';
import { diarizationModelsOf, type DiarizationCatalogModel, type DiarizationModelRole } from './diarization-model-catalog.ts';
import { findFirstUsable, inspectDiarizationModel } from './find-installed-diarization-models.ts';
import {
  describeDiarizationSelfTest,
  DIARIZATION_SELF_TEST_MAX_DER,
  DIARIZATION_SELF_TEST_SPEAKERS,
  runDiarizationSelfTest,
  type DiarizationSelfTestResult,
} from './run-diarization-self-test.ts';

/** One diarization model to install and where it comes from (default: its official release). */
export interface DiarizationInstallRequest {
  model: DiarizationCatalogModel;
  /** `archive`: the release asset as a local file (`NAME.tar.bz2` or `NAME.onnx`); `folder`: a folder `NAME/` holding its file. */
  source?: ModelSource;
}

export interface InstallDiarizationOptions {
  modelsDir: string;
  /** One or two models, at most one per role. A role not asked for is taken from MODELS_DIR (the installed partner). */
  requests: readonly DiarizationInstallRequest[];
  /** SHA-256 the one requested file must have (64 hex digits); only with a single request that is not a folder. */
  expectedSha256?: string | null;
  /** Activate the pair even though its self-test failed. */
  force?: boolean;
  /** One download attempt, ms (default 1 hour). */
  timeoutMs?: number;
  /** Retries of a failed download (default 4, backoff `retryBaseDelayMs` doubled). */
  maxRetries?: number;
  /** First backoff, ms (default 2000). */
  retryBaseDelayMs?: number;
  /** Largest file accepted, bytes (default 1 GiB; the catalog's largest is under 100 MB). */
  maxBytes?: number;
  /** Unpacking, ms (default 10 minutes). */
  extractTimeoutMs?: number;
  onProgress?: (name: string, receivedBytes: number, totalBytes: number | null) => void;
  onRetry?: (name: string, retry: number, delayMs: number, reason: string) => void;
  onStage?: (name: string, stage: InstallStage) => void;
  signal?: AbortSignal;
}

/** What `.install.json` holds for a diarization model installed by installDiarizationModels. */
export interface DiarizationInstallRecord {
  source: ModelSource['kind'];
  /** The file's URL (`file://` for a local file or folder). */
  archiveUrl: string;
  /** SHA-256 of the downloaded or given file, or null for a folder. */
  sha256: string | null;
  /** SHA-256 of the line `<sha256 of the ONNX file>  <file name>\n` (the form hash-model-files.ts uses). */
  contentSha256: string;
  /** Size of the file (folder: the ONNX file), bytes. */
  bytes: number;
  installedAt: string;
  /** The self-test of the pair this model was installed with. */
  selfTest: DiarizationSelfTestResult;
  /** True when the self-test failed and `force` activated it anyway. */
  forced: boolean;
}

/** One model of an install. */
export interface InstalledDiarizationModel {
  model: DiarizationCatalogModel;
  status: 'installed' | 'already-installed';
  /** `MODELS_DIR/<name>`. */
  directory: string;
  sha256: string | null;
  bytes: number | null;
  /** `new`: first install of the name, pinned now; `matched`: equal to the pin; null when already installed. */
  pin: 'new' | 'matched' | null;
}

export interface InstallDiarizationResult {
  models: InstalledDiarizationModel[];
  /** The pair that was self-tested (or that is installed, when nothing was installed). */
  pair: { segmentation: string; embedding: string };
  /** null when every requested model was already installed (nothing was tested). */
  selfTest: DiarizationSelfTestResult | null;
  forced: boolean;
}

/** The start of the refusal when a pair's self-test fails. */
export const DIARIZATION_SELF_TEST_FAILED = 'Self-test of the diarization pair';

/** The release asset's URL, on the mirror when one is given (a mirror holds the release files under their own names, in one folder). */
export function diarizationArchiveUrlOf(model: DiarizationCatalogModel, mirrorUrl?: string): string {
  if (!mirrorUrl) return model.archiveUrl;
  return mirrorUrl.replace(/\/*$/, '/') + model.archiveUrl.slice(model.archiveUrl.lastIndexOf('/') + 1);
}

/** Where a download of `model` is kept between attempts and runs: `MODELS_DIR/.downloads/NAME.tar.bz2|.onnx`. */
export function diarizationDownloadPath(modelsDir: string, model: DiarizationCatalogModel): string {
  return path.join(path.resolve(modelsDir), '.downloads', `${model.name}.${model.packaging}`);
}

/** One model brought into the staging folder. */
interface Staged {
  model: DiarizationCatalogModel;
  source: ModelSource;
  url: string;
  sha256: string | null;
  contentSha256: string;
  bytes: number;
  /** `<staging>/<name>`, holding `model.file`. */
  directory: string;
  /** The kept download, or null (local source). */
  download: string | null;
}

/**
 * Installs one or two neural diarization models (diarization-model-catalog.ts) into `MODELS_DIR/<name>/`
 * as the recognition models are installed (install-model.ts), then self-tests them as a pair:
 * 1. each file is downloaded into `MODELS_DIR/.downloads/` (resumed with Range and If-Range after a cut,
 *    progress through `onProgress`) or taken from a local file or folder; its SHA-256 is checked against
 *    `expectedSha256` / the catalog and against its pin in `MODELS_DIR/models.lock.json`;
 * 2. it is put into a staging folder inside MODELS_DIR: a segmentation archive unpacked (limits and links
 *    checked as for recognition models), an embedding model copied to `<name>/<name>.onnx`; the ONNX file
 *    must be there and look like ONNX;
 * 3. the self-test (runDiarizationSelfTest) runs the pair, each role from this install or else the one
 *    installed in MODELS_DIR, on the two-speaker clip; a pair that does not find 2 speakers with a DER
 *    of at most 0.20 is not activated unless `force`;
 * 4. `.install.json` is written, each folder renamed into place, first installs pinned, downloads deleted.
 * A failure leaves no partial install. Downloads are kept when a transfer was cut (to resume) and when
 * only the self-test failed (so `--force` need not fetch them again); deleted after a hash or pin
 * mismatch. One install of a name runs at a time across processes (claim-install-slot.ts). A release
 * install of a model whose folder is already ready downloads nothing; when every requested model is,
 * nothing is tested either.
 * @throws AppError `invalid_input` (two models of one role, `expectedSha256` not 64 hex digits or with two
 *   models); `engine_unavailable` (no installed partner for the role not asked for, another process
 *   installing a name, hash or pin mismatch, a damaged archive or file, a failed self-test without
 *   `force`: message starting with DIARIZATION_SELF_TEST_FAILED); `upstream_refused` /
 *   `upstream_unreachable` (download); `signal.reason` when aborted.
 */
export async function installDiarizationModels(options: InstallDiarizationOptions): Promise<InstallDiarizationResult> {
  const { modelsDir, requests } = options;
  const roles = requests.map((request) => request.model.role);
  if (requests.length === 0 || new Set(roles).size !== roles.length) {
    throw new AppError('invalid_input', 'Install one diarization model, or one segmentation and one embedding model together (a pair)');
  }
  if (options.expectedSha256 && (!isSha256Hex(options.expectedSha256) || requests.length !== 1)) {
    throw new AppError('invalid_input', '--sha256 must be the SHA-256 of the one file installed, as 64 hex digits (as `sha256sum` prints it)', { param: 'sha256' });
  }
  const wanted: DiarizationInstallRequest[] = [];
  const results: InstalledDiarizationModel[] = [];
  for (const request of requests) {
    const source = request.source ?? { kind: 'release' };
    const current = await inspectDiarizationModel(modelsDir, request.model);
    if (source.kind === 'release' && current?.layout === 'folder' && current.problem === null) {
      results.push({ model: request.model, status: 'already-installed', directory: path.dirname(current.path), sha256: null, bytes: null, pin: null });
    } else {
      wanted.push({ model: request.model, source });
    }
  }
  const partners = await findPartners(modelsDir, requests);
  if (wanted.length === 0) {
    const pair = { segmentation: partners.segmentation?.name ?? '', embedding: partners.embedding?.name ?? '' };
    return { models: results, pair, selfTest: null, forced: false };
  }
  await mkdir(modelsDir, { recursive: true });
  const releases: (() => Promise<void>)[] = [];
  try {
    for (const { model } of wanted) {
      const release = await claimInstallSlot(modelsDir, model.name);
      if (typeof release !== 'function') {
        throw new AppError('engine_unavailable',
          `Another process is installing ${model.name} into ${path.resolve(modelsDir)} right now (pid ${release.holder.pid} on ${release.holder.host}, claim ${release.file}); ` +
          `nothing was done (run again when it has finished). If no install of it is running, delete ${release.file} and run again`);
      }
      releases.push(release);
    }
    return await installClaimed(options, wanted, partners, results);
  } finally {
    for (const release of releases) await release();
  }
}

/** For each role, the model of `requests` or else the first usable one installed; throws when a role has neither. */
async function findPartners(modelsDir: string, requests: readonly DiarizationInstallRequest[]) {
  const partners: Partial<Record<DiarizationModelRole, DiarizationCatalogModel & { installedPath?: string }>> = {};
  for (const role of ['segmentation', 'embedding'] as const) {
    const asked = requests.find((request) => request.model.role === role);
    if (asked) {
      partners[role] = asked.model;
      continue;
    }
    const installed = await findFirstUsable(modelsDir, diarizationModelsOf(role));
    if (!installed) {
      const other = requests[0]!.model;
      const recommended = diarizationModelsOf(role)[0]!;
      throw new AppError('engine_unavailable',
        `${other.name} is ${other.role === 'embedding' ? 'an' : 'a'} ${other.role} model; it is self-tested and used together with a ${role} model, and none is installed in ${path.resolve(modelsDir)}: ` +
        `install both, e.g. \`npm run models -- download ${other.name} ${recommended.name}\`; nothing was installed`);
    }
    partners[role] = { ...installed.model, installedPath: installed.path };
  }
  return partners as Record<DiarizationModelRole, DiarizationCatalogModel & { installedPath?: string }>;
}

async function installClaimed(
  options: InstallDiarizationOptions,
  wanted: DiarizationInstallRequest[],
  partners: Record<DiarizationModelRole, DiarizationCatalogModel & { installedPath?: string }>,
  results: InstalledDiarizationModel[],
): Promise<InstallDiarizationResult> {
  const { modelsDir } = options;
  const lockFile = modelsLockPath(modelsDir);
  const lock = await readModelsLock(modelsDir);
  for (const { model } of wanted) await removeStaleStaging(modelsDir, model.name);
  const staging = await mkdtemp(path.join(modelsDir, `.install-${wanted.map((request) => request.model.name).join('+')}-`));
  const staged: Staged[] = [];
  const dropDownloads: string[] = [];
  try {
    for (const request of wanted) {
      const one = await stageModel(options, request, staging, dropDownloads);
      checkAgainstPin(one.model.name, lock.models[one.model.name], { sha256: one.sha256, contentSha256: one.contentSha256, url: one.url }, lockFile);
      staged.push(one);
    }
    const fileOf = (role: DiarizationModelRole) => {
      const mine = staged.find((one) => one.model.role === role);
      return mine ? path.join(mine.directory, mine.model.file) : partners[role].installedPath!;
    };
    const pair = { segmentation: partners.segmentation.name, embedding: partners.embedding.name };
    for (const one of staged) options.onStage?.(one.model.name, 'self-test');
    const selfTest = await runDiarizationSelfTest({ segmentation: fileOf('segmentation'), embedding: fileOf('embedding') }, pair, { signal: options.signal });
    if (!selfTest.passed && !options.force) throw selfTestFailed(selfTest, staged);
    const installedAt = new Date().toISOString();
    for (const one of staged) {
      options.onStage?.(one.model.name, 'activate');
      const record: DiarizationInstallRecord = {
        source: one.source.kind, archiveUrl: one.url, sha256: one.sha256, contentSha256: one.contentSha256, bytes: one.bytes, installedAt, selfTest, forced: !selfTest.passed,
      };
      await writeFile(path.join(one.directory, '.install.json'), `${JSON.stringify(record, null, 2)}\n`);
      const target = path.join(path.resolve(modelsDir), one.model.name);
      if (await lstat(target).then(() => true, () => false)) await rename(target, path.join(staging, `replaced-${one.model.name}`));
      await rename(one.directory, target);
      const pinned = lock.models[one.model.name] !== undefined;
      results.push({ model: one.model, status: 'installed', directory: target, sha256: one.sha256, bytes: one.bytes, pin: pinned ? 'matched' : 'new' });
      if (one.download) dropDownloads.push(one.download);
    }
    const fresh = await readModelsLock(modelsDir);
    let changed = false;
    for (const one of staged) {
      if (fresh.models[one.model.name]) continue;
      fresh.models[one.model.name] = { url: one.url, bytes: one.bytes, sha256: one.sha256, contentSha256: one.contentSha256, pinnedAt: installedAt };
      changed = true;
    }
    if (changed) await writeModelsLock(modelsDir, fresh);
    return { models: results, pair, selfTest, forced: !selfTest.passed };
  } finally {
    await rm(staging, { recursive: true, force: true });
    for (const download of dropDownloads) await removeKeptDownload(download);
  }
}

/** The refusal of a pair whose self-test failed, saying what was kept. */
function selfTestFailed(selfTest: DiarizationSelfTestResult, staged: Staged[]): AppError {
  const kept = staged.flatMap((one) => (one.download ? [one.download] : []));
  const keptText = kept.length > 0 ? ` The download is kept in ${kept.join(' and ')}, so running again with --force does not fetch it again.` : '';
  return new AppError('engine_unavailable',
    `${DIARIZATION_SELF_TEST_FAILED} ${selfTest.pair.segmentation} + ${selfTest.pair.embedding} failed: ${selfTest.reason}` +
    `${selfTest.der === null ? '' : ` (${describeDiarizationSelfTest(selfTest)})`}; a pair must find the ${DIARIZATION_SELF_TEST_SPEAKERS} speakers of the ` +
    `self-test clip with a DER of at most ${DIARIZATION_SELF_TEST_MAX_DER}, so it was NOT activated and nothing was installed. Add --force to install it anyway.${keptText}`);
}

/** Gets one model's file, checks its hash, and lays it out as `<staging>/<name>/<file>`. Downloads to drop on a mismatch go to `dropDownloads`. */
async function stageModel(options: InstallDiarizationOptions, request: DiarizationInstallRequest, staging: string, dropDownloads: string[]): Promise<Staged> {
  const { model } = request;
  const source = request.source ?? { kind: 'release' };
  const directory = path.join(staging, model.name);
  let url: string;
  let sha256: string | null = null;
  let bytes = 0;
  let download: string | null = null;
  let file: string;
  if (source.kind === 'folder') {
    const from = path.resolve(source.directory);
    url = pathToFileURL(from).href;
    options.onStage?.(model.name, 'unpack');
    const real = await checkSourceFolder(from, url, UNPACK_LIMITS).catch(unreadable(from));
    await cp(real, directory, { recursive: true, verbatimSymlinks: true }).catch(unreadable(from));
    await relinkAbsoluteLinks(real, directory);
  } else {
    if (source.kind === 'archive') {
      file = path.resolve(source.file);
      bytes = await stat(file).then((info) => info.size, () => {
        throw new AppError('engine_unavailable', `${file} does not exist; nothing was installed`);
      });
      url = pathToFileURL(file).href;
      options.onStage?.(model.name, 'verify');
      sha256 = await sha256OfFile(file);
    } else {
      url = diarizationArchiveUrlOf(model, source.mirrorUrl);
      file = diarizationDownloadPath(options.modelsDir, model);
      await mkdir(path.dirname(file), { recursive: true });
      options.onStage?.(model.name, 'download');
      ({ sha256, bytes } = await downloadModelArchive({
        url, destination: file, timeoutMs: options.timeoutMs ?? 3_600_000, maxRetries: options.maxRetries ?? 4,
        retryBaseDelayMs: options.retryBaseDelayMs ?? 2000, maxBytes: options.maxBytes ?? 1024 ** 3,
        onProgress: (received, total) => options.onProgress?.(model.name, received, total),
        onRetry: (retry, delayMs, reason) => options.onRetry?.(model.name, retry, delayMs, reason),
        signal: options.signal,
      }));
      download = file;
      options.onStage?.(model.name, 'verify');
    }
    const expected = (options.expectedSha256 ?? model.sha256)?.toLowerCase() ?? null;
    if (expected !== null && expected !== sha256) {
      if (download) dropDownloads.push(download);
      const origin = options.expectedSha256 ? '--sha256' : 'the catalog';
      throw new AppError('engine_unavailable', `SHA-256 mismatch for ${model.name}: ${origin} expects ${expected}, ${url} has ${sha256}; nothing was installed`);
    }
    options.onStage?.(model.name, 'unpack');
    if (model.packaging === 'tar.bz2') {
      const unpacked = path.join(staging, `unpacked-${model.name}`);
      try {
        await extractTarBz2(file, unpacked, url, { timeoutMs: options.extractTimeoutMs ?? 600_000, limits: UNPACK_LIMITS, signal: options.signal });
        await checkUnpackedTree(unpacked, model.name, url, UNPACK_LIMITS);
      } catch (error) {
        if (download) dropDownloads.push(download);
        throw error;
      }
      await rename(path.join(unpacked, model.name), directory);
    } else {
      await mkdir(directory);
      await copyFile(file, path.join(directory, model.file));
    }
  }
  const onnx = path.join(directory, model.file);
  const problem = await checkOnnxFile(onnx);
  if (problem !== null) {
    if (download) dropDownloads.push(download);
    throw new AppError('engine_unavailable', `${url} is not a usable ${model.name}: ${model.name}/${model.file} ${problem}; nothing was installed`);
  }
  const fileSha256 = await sha256OfFile(onnx);
  if (source.kind === 'folder') bytes = (await stat(onnx)).size;
  const contentSha256 = createHash('sha256').update(`${fileSha256}  ${model.file}\n`).digest('hex');
  return { model, source, url, sha256, contentSha256, bytes, directory, download };
}

/** The error for a local folder that cannot be read. */
function unreadable(from: string) {
  return (error: unknown): never => {
    if (error instanceof AppError) throw error;
    throw new AppError('engine_unavailable', `Cannot read ${from}: ${(error as Error).message}; nothing was installed`, { cause: error });
  };
}

/** Removes staging folders that a killed install of `name` left behind (only called while holding its install slot). */
async function removeStaleStaging(modelsDir: string, name: string): Promise<void> {
  for (const entry of await readdir(modelsDir)) {
    const names = /^\.install-(.+)-[A-Za-z0-9]{6}$/.exec(entry)?.[1]?.split('+') ?? [];
    if (names.includes(name)) {
      await rm(path.join(modelsDir, entry), { recursive: true, force: true });
    }
  }
}
