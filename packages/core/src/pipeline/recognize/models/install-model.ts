import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { AppError } from '../../../platform/errors/app-error.ts';
import { downloadModelArchive, sha256OfFile } from './download-model-archive.ts';
import { INSTALL_RECORD_FILE, inspectInstalledModel, type InstallRecord } from './list-installed-models.ts';
import { ASR_MODELS_RELEASE_URL, type CatalogModel } from './model-catalog.ts';
import { claimInstallSlot } from './install/claim-install-slot.ts';
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

const run = promisify(execFile);

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

/** Unpacks a .tar.bz2 with Debian's tar (bzip2 needed); GNU tar drops leading `/` and `..` members. */
async function extractTarBz2(archive: string, into: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  await mkdir(into);
  try {
    await run('tar', ['-xjf', archive, '-C', into, '--no-same-owner', '--no-same-permissions'], { timeout: timeoutMs, signal, maxBuffer: 1 << 20 });
  } catch (error) {
    signal?.throwIfAborted();
    const detail = ((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split('\n').slice(-3).join(' ');
    throw new AppError('engine_unavailable', `Unpacking the archive failed (needs \`tar\` and \`bzip2\`): ${detail}; nothing was installed`, { cause: error });
  }
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
 * 1. the archive is downloaded into `MODELS_DIR/.downloads/` (resumed with HTTP Range when a
 *    previous attempt was cut), and its SHA-256 is checked against `expectedSha256` / the catalog;
 * 2. it is compared with the pin for the name in `MODELS_DIR/models.lock.json` (checkAgainstPin);
 * 3. it is unpacked into a staging folder inside MODELS_DIR, and every file the catalog names must
 *    be there and plausible (inspectInstalledModel);
 * 4. the self-test decodes 11 s of English with the engine the service uses (runModelSelfTest); a
 *    model with no text or a WER over SELF_TEST_MAX_WER is not activated unless `force`;
 * 5. `.install.json` (source, hashes, size, self-test) is written, the folder renamed into place
 *    (replacing a broken or older install), and a first install pins name, URL, size and hashes.
 * A failure leaves no partial install: the staging folder is always removed. The download is kept
 * when the archive was fine but the self-test failed (so `--force` need not fetch it again) and
 * when the download was cut (to resume); it is deleted after an install and after a hash mismatch.
 * A release install of a model that is already ready downloads nothing. One install of a name
 * runs at a time across processes (claim-install-slot.ts); it first removes staging folders that a
 * killed install of the name left behind.
 * @throws AppError `engine_unavailable` (another process installing the name, message starting
 *   with ANOTHER_INSTALL; hash mismatch with `--sha256`, the catalog or the pin, with
 *   both hashes; archive that fails to unpack or lacks a file; failed self-test without `force`;
 *   `expectedSha256` with a folder), `upstream_refused` / `upstream_unreachable` (download);
 *   `signal.reason` when aborted.
 */
export async function installModel(options: InstallModelOptions): Promise<InstallModelResult> {
  const { model } = options;
  const source = options.source ?? { kind: 'release' };
  const current = await inspectInstalledModel(options.modelsDir, model);
  if (source.kind === 'release' && current.status === 'ready') {
    return { status: 'already-installed', directory: current.directory, sha256: current.install?.sha256 ?? null, bytes: null, pin: null, selfTest: current.install?.selfTest ?? null, forced: current.install?.forced ?? false };
  }
  if (source.kind === 'folder' && options.expectedSha256) {
    throw new AppError('engine_unavailable', '--sha256 is the hash of an archive; a folder has none (its model files are compared with the pin instead)');
  }
  await mkdir(options.modelsDir, { recursive: true });
  const release = await claimInstallSlot(options.modelsDir, model.name);
  if (!release) {
    throw new AppError('engine_unavailable', `${ANOTHER_INSTALL} ${model.name} into ${path.resolve(options.modelsDir)} right now; nothing was done (run again when it has finished)`);
  }
  try {
    await removeStaleStaging(options.modelsDir, model.name);
    return await installClaimed(options, source, current);
  } finally {
    await release();
  }
}

/** The start of the message installModel refuses with while another process installs the same name. */
export const ANOTHER_INSTALL = 'Another process is installing';

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

/** installModel's steps 1–6, run while holding the install slot of `options.model.name`. */
async function installClaimed(options: InstallModelOptions, source: ModelSource, current: Awaited<ReturnType<typeof inspectInstalledModel>>): Promise<InstallModelResult> {
  const { model } = options;
  const lockFile = modelsLockPath(options.modelsDir);
  const pin = (await readModelsLock(options.modelsDir)).models[model.name];
  const staging = await mkdtemp(path.join(options.modelsDir, `.install-${model.name}-`));
  let keepDownload = true;
  let download: string | null = null;
  try {
    const unpackedRoot = path.join(staging, 'unpacked');
    let url: string;
    let sha256: string | null = null;
    let bytes: number;
    if (source.kind === 'folder') {
      const from = path.resolve(source.directory);
      url = pathToFileURL(from).href;
      options.onStage?.('unpack');
      await cp(from, path.join(unpackedRoot, model.name), { recursive: true, errorOnExist: false }).catch((error: unknown) => {
        throw new AppError('engine_unavailable', `Cannot read ${from}: ${(error as Error).message}; nothing was installed`, { cause: error });
      });
      bytes = 0;
    } else {
      const archive = await obtainArchive(options, source);
      if (archive.downloaded) download = archive.file;
      ({ url, sha256, bytes } = archive);
      keepDownload = false; // from here on a mismatch means the bytes are wrong: fetch afresh next time
      checkExpectedSha256(model, url, sha256, options);
      checkAgainstPin(model.name, pin, { sha256, contentSha256: null, url }, lockFile);
      options.onStage?.('unpack');
      await extractTarBz2(archive.file, unpackedRoot, options.extractTimeoutMs ?? 600_000, options.signal);
    }
    const unpacked = await inspectInstalledModel(unpackedRoot, model);
    if (unpacked.status !== 'ready') {
      const problems = unpacked.status === 'absent' ? [`it has no folder ${model.name}/`] : unpacked.problems.map((problem) => problem.replace(`${unpackedRoot}/`, ''));
      throw new AppError('engine_unavailable', `${url} is not a complete ${model.name}: ${problems.join('; ')}; nothing was installed`);
    }
    if (source.kind === 'folder') bytes = unpacked.bytes;
    const contentSha256 = await hashModelFiles(unpacked.directory, model);
    checkAgainstPin(model.name, pin, { sha256, contentSha256, url }, lockFile);
    keepDownload = true;
    options.onStage?.('self-test');
    const selfTest = await runModelSelfTest(unpackedRoot, model, { maxThreads: options.selfTestThreads, signal: options.signal });
    if (!selfTest.passed && !options.force) {
      const kept = download ? ` The download is kept in ${download}, so running again with --force does not fetch it again.` : '';
      throw new AppError('engine_unavailable',
        `Self-test of ${model.name} failed: ${selfTest.reason}${selfTest.wer === null ? '' : ` (${describeSelfTest(selfTest)})`}; a model must transcribe the ` +
        `self-test clip with a WER of at most ${SELF_TEST_MAX_WER}, so it was NOT activated and nothing was installed. ` +
        `Add --force to install it anyway.${kept}`);
    }
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
    keepDownload = false;
    return { status: 'installed', directory: current.directory, sha256, bytes, pin: pin ? 'matched' : 'new', selfTest, forced: !selfTest.passed };
  } finally {
    await rm(staging, { recursive: true, force: true });
    if (download && !keepDownload) await rm(download, { force: true });
  }
}

/** Renames `from` to `to`; an existing (broken or older) `to` is first moved into `staging` to be removed with it. */
async function moveIntoPlace(from: string, to: string, staging: string): Promise<void> {
  const exists = await stat(to).then(() => true, () => false);
  if (exists) await rename(to, path.join(staging, 'replaced'));
  await rename(from, to);
}
