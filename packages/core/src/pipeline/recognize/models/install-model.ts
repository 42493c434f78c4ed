import { cp, lstat, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AppError } from '../../../platform/errors/app-error.ts';
import { downloadModelArchive, sha256OfFile } from './download-model-archive.ts';
import { INSTALL_RECORD_FILE, inspectInstalledModel, type InstallRecord } from './list-installed-models.ts';
import { ASR_MODELS_RELEASE_URL, type CatalogModel } from './model-catalog.ts';
import { claimInstallSlot, type InstallSlotBusy } from './install/claim-install-slot.ts';
import { checkSourceFolder, checkUnpackedTree, relinkAbsoluteLinks, UNPACK_LIMITS } from './install/check-unpacked-tree.ts';
import { extractTarBz2 } from './install/extract-tar-bz2.ts';
import { removeKeptDownload } from './install/kept-download.ts';
import { forgetSelfTest, recallFailedSelfTest, rememberFailedSelfTest, type RememberedSelfTest } from './install/remember-self-test.ts';
import { hashModelFiles } from './install/hash-model-files.ts';
import { checkAgainstPin, modelsLockPath, readModelsLock, writeModelsLock } from './install/models-lock.ts';
import { runModelSelfTest, SELF_TEST_MAX_WER, type SelfTestResult } from './install/run-model-self-test.ts';

export * from './install/models-lock.ts';
export * from './install/hash-model-files.ts';
export * from './install/run-model-self-test.ts';
export * from './install/probe-release-host.ts';
export * from './install/remove-model.ts';
export * from './install/recommended-model.ts';
export * from './install/claim-install-slot.ts';

/** Where the archive comes from: the official release (or a mirror of it), a local archive, or a local folder. */
export type ModelSource =
  | { kind: 'release'; mirrorUrl?: string }
  | { kind: 'archive'; file: string }
  | { kind: 'folder'; directory: string };

/** The steps an install goes through, for progress messages. */
export type InstallStage = 'download' | 'verify' | 'unpack' | 'self-test' | 'activate';

export interface InstallModelOptions {
  modelsDir: string;
  model: CatalogModel;
  /** Default: the official release. */
  source?: ModelSource;
  /**
   * SHA-256 the archive must have (64 hex digits, any case), e.g. read from a release page or
   * another machine's lock file; the catalog's `sha256` when null. Not usable with a folder.
   */
  expectedSha256?: string | null;
  /** Activate the model even though its self-test failed (empty text or WER over SELF_TEST_MAX_WER). */
  force?: boolean;
  /**
   * Run the self-test even when a failure of it on these same bytes is remembered
   * (remember-self-test.ts); without it a remembered failure is reported without running again.
   */
  retest?: boolean;
  /** One download attempt, ms (default 1 hour). */
  timeoutMs?: number;
  /** Retries of a failed download (default 4, backoff `retryBaseDelayMs` doubled). */
  maxRetries?: number;
  /** First backoff, ms (default 2000). */
  retryBaseDelayMs?: number;
  /** Largest archive accepted, bytes (default 4 GiB). */
  maxBytes?: number;
  /** Unpacking, ms (default 10 minutes). */
  extractTimeoutMs?: number;
  /** Largest unpacked model: total bytes and entries (default UNPACK_LIMITS: 8 GiB, 10,000 entries). */
  unpackLimits?: { maxBytes: number; maxEntries: number };
  /** ONNX Runtime threads of the self-test (default: the engine's). */
  selfTestThreads?: number;
  onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
  onRetry?: (retry: number, delayMs: number, reason: string) => void;
  onStage?: (stage: InstallStage) => void;
  signal?: AbortSignal;
}

export interface InstallModelResult {
  status: 'installed' | 'already-installed';
  /** `MODELS_DIR/<name>`. */
  directory: string;
  /** SHA-256 of the archive, or null (folder install, or nothing was downloaded). */
  sha256: string | null;
  /** Size of the archive (folder: the model files), bytes; null when already installed. */
  bytes: number | null;
  /** `new`: first install of this name, pinned now; `matched`: equal to the pin; null when already installed. */
  pin: 'new' | 'matched' | null;
  /** The self-test of this install; for an already-installed model, the recorded one (or null). */
  selfTest: SelfTestResult | null;
  /** True when the self-test failed and `force` activated the model anyway. */
  forced: boolean;
}

/** The archive URL, on the mirror when one is given (a mirror holds the same `<name>.tar.bz2` files). */
export function archiveUrlOf(model: CatalogModel, mirrorUrl?: string): string {
  if (!mirrorUrl) return model.archiveUrl;
  return mirrorUrl.replace(/\/*$/, '/') + model.archiveUrl.slice(ASR_MODELS_RELEASE_URL.length);
}

/** Where a download of `name` is kept between attempts and runs (so it can resume): `MODELS_DIR/.downloads/`. */
export function partialDownloadPath(modelsDir: string, name: string): string {
  return path.join(path.resolve(modelsDir), '.downloads', `${name}.tar.bz2`);
}

/** Refuses an archive whose SHA-256 differs from the one given up front (or the catalog's). */
function checkExpectedSha256(model: CatalogModel, url: string, actual: string, options: InstallModelOptions): void {
  const expected = (options.expectedSha256 ?? model.sha256)?.toLowerCase() ?? null;
  if (expected === null || expected === actual) return;
  const origin = options.expectedSha256 ? '--sha256' : 'the catalog';
  throw new AppError('engine_unavailable', `SHA-256 mismatch for ${model.name}: ${origin} expects ${expected}, ${url} has ${actual}; nothing was installed`);
}

/** Whether `value` is a SHA-256 as `--sha256` takes it: 64 hex digits, either case. */
export function isSha256Hex(value: string): boolean {
  return /^[0-9a-f]{64}$/i.test(value);
}

/** One line for messages: `WER 0.045, real-time factor 0.12, heard "…"`. */
export function describeSelfTest(result: SelfTestResult): string {
  if (result.wer === null) return result.reason ?? 'no result';
  const heard = result.text.length > 80 ? `${result.text.slice(0, 77)}...` : result.text;
  return `WER ${result.wer.toFixed(3)}, real-time factor ${result.realTimeFactor?.toFixed(3)}, heard "${heard}"`;
}

/** Gets the archive (download or local file) into `archive`; @returns where it came from, its hash and size. */
async function obtainArchive(options: InstallModelOptions, source: Exclude<ModelSource, { kind: 'folder' }>) {
  const { model } = options;
  if (source.kind === 'archive') {
    const file = path.resolve(source.file);
    const bytes = await stat(file).then((info) => info.size, () => {
      throw new AppError('engine_unavailable', `${file} does not exist; nothing was installed`);
    });
    options.onStage?.('verify');
    return { file, url: pathToFileURL(file).href, sha256: await sha256OfFile(file), bytes, downloaded: false };
  }
  const url = archiveUrlOf(model, source.mirrorUrl);
  const file = partialDownloadPath(options.modelsDir, model.name);
  await mkdir(path.dirname(file), { recursive: true });
  options.onStage?.('download');
  const { sha256, bytes } = await downloadModelArchive({
    url, destination: file, timeoutMs: options.timeoutMs ?? 3_600_000, maxRetries: options.maxRetries ?? 4,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 2000, maxBytes: options.maxBytes ?? 4 * 1024 ** 3,
    onProgress: options.onProgress, onRetry: options.onRetry, signal: options.signal,
  });
  options.onStage?.('verify');
  return { file, url, sha256, bytes, downloaded: true };
}

/**
 * Installs a catalog model into `MODELS_DIR/<name>` from its official release (or a mirror), a local
 * `.tar.bz2`, or a local folder, with lockfile semantics:
 * 1. the archive is downloaded into `MODELS_DIR/.downloads/` (resumed with HTTP Range and If-Range
 *    when a previous attempt was cut), and its SHA-256 is checked against `expectedSha256` / the catalog;
 * 2. it is compared with the pin for the name in `MODELS_DIR/models.lock.json` (checkAgainstPin);
 * 3. it is unpacked into a staging folder inside MODELS_DIR, stopped past `unpackLimits`
 *    (extract-tar-bz2.ts); no symbolic link may lead out of the model's folder and the top folder
 *    must be a folder (check-unpacked-tree.ts); every file the catalog names must be there and
 *    plausible (inspectInstalledModel). A folder is checked the same way before it is copied,
 *    its links kept relative;
 * 4. the self-test decodes 11 s of English with the engine the service uses (runModelSelfTest); a
 *    model with no text or a WER over SELF_TEST_MAX_WER is not activated unless `force`. A failure
 *    is remembered for these bytes (remember-self-test.ts) and reported again without running
 *    (nor unpacking) until the bytes change or `retest` is given;
 * 5. `.install.json` (source, hashes, size, self-test) is written, the folder renamed into place
 *    (replacing a broken or older install), and a first install pins name, URL, size and hashes.
 * A failure leaves no partial install: the staging folder is always removed. The download is kept
 * when the archive was fine but the self-test failed (so `--force` need not fetch it again) and
 * when the download was cut (to resume); it is deleted after an install and after a hash mismatch.
 * A release install of a model that is already ready downloads nothing. One install of a name
 * runs at a time across processes (claim-install-slot.ts); it first removes staging folders that a
 * killed install of the name left behind.
 * @throws AppError `invalid_input` for an `expectedSha256` that is not 64 hex digits;
 *   `engine_unavailable` (another process installing the name, message starting with
 *   ANOTHER_INSTALL and naming the claim file to delete when no install runs; hash mismatch with
 *   `--sha256`, the catalog or the pin, with both hashes; archive that fails to unpack, is over a
 *   limit, holds a link out of the model's folder or lacks a file; failed self-test, run or
 *   remembered, without `force`; `expectedSha256` with a folder), `upstream_refused` /
 *   `upstream_unreachable` (download); `signal.reason` when aborted.
 */
export async function installModel(options: InstallModelOptions): Promise<InstallModelResult> {
  const { model } = options;
  const source = options.source ?? { kind: 'release' };
  if (options.expectedSha256 && !isSha256Hex(options.expectedSha256)) {
    throw new AppError('invalid_input', `--sha256 must be the archive's SHA-256 as 64 hex digits (as \`sha256sum\` prints it), not "${options.expectedSha256}"`, { param: 'sha256' });
  }
  const current = await inspectInstalledModel(options.modelsDir, model);
  if (source.kind === 'release' && current.status === 'ready') {
    return { status: 'already-installed', directory: current.directory, sha256: current.install?.sha256 ?? null, bytes: null, pin: null, selfTest: current.install?.selfTest ?? null, forced: current.install?.forced ?? false };
  }
  if (source.kind === 'folder' && options.expectedSha256) {
    throw new AppError('engine_unavailable', '--sha256 is the hash of an archive; a folder has none (its model files are compared with the pin instead)');
  }
  await mkdir(options.modelsDir, { recursive: true });
  const release = await claimInstallSlot(options.modelsDir, model.name);
  if (typeof release !== 'function') throw anotherInstall(options.modelsDir, model.name, release);
  try {
    await removeStaleStaging(options.modelsDir, model.name);
    return await installClaimed(options, source, current);
  } finally {
    await release();
  }
}

/** The start of the message installModel refuses with while another process installs the same name. */
export const ANOTHER_INSTALL = 'Another process is installing';

/** The refusal while `busy.holder` installs `name`, with how to clear a claim that outlived its install. */
function anotherInstall(modelsDir: string, name: string, busy: InstallSlotBusy): AppError {
  const { holder } = busy;
  return new AppError('engine_unavailable',
    `${ANOTHER_INSTALL} ${name} into ${path.resolve(modelsDir)} right now (pid ${holder.pid} on ${holder.host}, claim ${busy.file}); ` +
    `nothing was done (run again when it has finished). If no install of it is running (e.g. the claim was left by a machine ` +
    `that shares MODELS_DIR, or by a container since replaced), delete ${busy.file} and run again`);
}

/**
 * Removes staging folders `.install-NAME-XXXXXX` that an install killed midway (SIGKILL, power
 * loss) left behind; only called while holding the name's install slot, so none is in use.
 */
async function removeStaleStaging(modelsDir: string, name: string): Promise<void> {
  const pattern = new RegExp(`^\\.install-${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[A-Za-z0-9]{6}$`);
  for (const entry of await readdir(modelsDir)) {
    if (pattern.test(entry)) await rm(path.join(modelsDir, entry), { recursive: true, force: true });
  }
}

/** The refusal of a model whose self-test failed (now, or remembered from an earlier run on the same bytes). */
function selfTestFailed(model: CatalogModel, selfTest: SelfTestResult, remembered: boolean, download: string | null): AppError {
  const kept = download ? ` The download is kept in ${download}, so running again with --force does not fetch it again.` : '';
  const memory = remembered
    ? ` (remembered from the self-test of ${selfTest.testedAt} on these same bytes, not run again; add --retest to run it again)`
    : '';
  return new AppError('engine_unavailable',
    `Self-test of ${model.name} failed: ${selfTest.reason}${selfTest.wer === null ? '' : ` (${describeSelfTest(selfTest)})`}${memory}; a model must transcribe the ` +
    `self-test clip with a WER of at most ${SELF_TEST_MAX_WER}, so it was NOT activated and nothing was installed. ` +
    `Add --force to install it anyway.${kept}`);
}

/** Copies the folder `from` to `to` after checking it (links inside it, limits); links stay relative. */
async function copyModelFolder(from: string, to: string, limits: { maxBytes: number; maxEntries: number }): Promise<void> {
  const readError = (error: unknown) => {
    if (error instanceof AppError) throw error;
    throw new AppError('engine_unavailable', `Cannot read ${from}: ${(error as Error).message}; nothing was installed`, { cause: error });
  };
  const source = await checkSourceFolder(from, pathToFileURL(from).href, limits).catch(readError);
  await cp(source, to, { recursive: true, errorOnExist: false, verbatimSymlinks: true }).catch(readError);
  await relinkAbsoluteLinks(source, to);
}

/** installModel's steps 1–6, run while holding the install slot of `options.model.name`. */
async function installClaimed(options: InstallModelOptions, source: ModelSource, current: Awaited<ReturnType<typeof inspectInstalledModel>>): Promise<InstallModelResult> {
  const { model } = options;
  const lockFile = modelsLockPath(options.modelsDir);
  const limits = options.unpackLimits ?? UNPACK_LIMITS;
  const pin = (await readModelsLock(options.modelsDir)).models[model.name];
  const staging = await mkdtemp(path.join(options.modelsDir, `.install-${model.name}-`));
  let keepDownload = true;
  let download: string | null = null;
  try {
    const unpackedRoot = path.join(staging, 'unpacked');
    let url: string;
    let sha256: string | null = null;
    let bytes: number;
    let remembered: RememberedSelfTest | null = null;
    if (source.kind === 'folder') {
      const from = path.resolve(source.directory);
      url = pathToFileURL(from).href;
      options.onStage?.('unpack');
      await mkdir(unpackedRoot);
      await copyModelFolder(from, path.join(unpackedRoot, model.name), limits);
      bytes = 0;
    } else {
      const archive = await obtainArchive(options, source);
      if (archive.downloaded) download = archive.file;
      ({ url, sha256, bytes } = archive);
      keepDownload = false; // from here on a mismatch means the bytes are wrong: fetch afresh next time
      checkExpectedSha256(model, url, sha256, options);
      checkAgainstPin(model.name, pin, { sha256, contentSha256: null, url }, lockFile);
      remembered = options.retest ? null : await recallFailedSelfTest(options.modelsDir, model.name, { archiveSha256: sha256, contentSha256: null });
      if (remembered && !options.force) {
        keepDownload = true;
        throw selfTestFailed(model, remembered.result, true, download);
      }
      options.onStage?.('unpack');
      await extractTarBz2(archive.file, unpackedRoot, url, { timeoutMs: options.extractTimeoutMs ?? 600_000, limits, signal: options.signal });
    }
    await checkUnpackedTree(unpackedRoot, model.name, url, limits);
    const unpacked = await inspectInstalledModel(unpackedRoot, model);
    if (unpacked.status !== 'ready') {
      const problems = unpacked.status === 'absent' ? [`it has no folder ${model.name}/`] : unpacked.problems.map((problem) => problem.replace(`${unpackedRoot}/`, ''));
      throw new AppError('engine_unavailable', `${url} is not a complete ${model.name}: ${problems.join('; ')}; nothing was installed`);
    }
    if (source.kind === 'folder') bytes = unpacked.bytes;
    const contentSha256 = await hashModelFiles(unpacked.directory, model);
    checkAgainstPin(model.name, pin, { sha256, contentSha256, url }, lockFile);
    keepDownload = true;
    if (source.kind === 'folder' && !options.retest) remembered = await recallFailedSelfTest(options.modelsDir, model.name, { archiveSha256: null, contentSha256 });
    if (remembered && !options.force) throw selfTestFailed(model, remembered.result, true, download);
    let selfTest: SelfTestResult;
    if (remembered) {
      selfTest = remembered.result;
    } else {
      options.onStage?.('self-test');
      selfTest = await runModelSelfTest(unpackedRoot, model, { maxThreads: options.selfTestThreads, signal: options.signal });
      if (!selfTest.passed) await rememberFailedSelfTest(options.modelsDir, model.name, { archiveSha256: sha256, contentSha256, result: selfTest });
    }
    if (!selfTest.passed && !options.force) throw selfTestFailed(model, selfTest, false, download);
    options.onStage?.('activate');
    const record: InstallRecord = {
      source: source.kind, archiveUrl: url, sha256, contentSha256, bytes, installedAt: new Date().toISOString(), selfTest, forced: !selfTest.passed,
    };
    await writeFile(path.join(unpacked.directory, INSTALL_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
    await moveIntoPlace(unpacked.directory, current.directory, staging);
    if (!pin) {
      const lock = await readModelsLock(options.modelsDir);
      lock.models[model.name] = { url, bytes, sha256, contentSha256, pinnedAt: record.installedAt };
      await writeModelsLock(options.modelsDir, lock);
    }
    await forgetSelfTest(options.modelsDir, model.name);
    keepDownload = false;
    return { status: 'installed', directory: current.directory, sha256, bytes, pin: pin ? 'matched' : 'new', selfTest, forced: !selfTest.passed };
  } finally {
    await rm(staging, { recursive: true, force: true });
    if (download && !keepDownload) await removeKeptDownload(download);
  }
}

/** Renames `from` to `to`; an existing (broken or older) `to` is first moved into `staging` to be removed with it. */
async function moveIntoPlace(from: string, to: string, staging: string): Promise<void> {
  const exists = await lstat(to).then(() => true, () => false);
  if (exists) await rename(to, path.join(staging, 'replaced'));
  await rename(from, to);
}
