import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { AppError } from '../errors/app-error.ts';
import { downloadModelArchive } from './download-model-archive.ts';
import { INSTALL_RECORD_FILE, inspectInstalledModel, type InstallRecord } from './list-installed-models.ts';
import { ASR_MODELS_RELEASE_URL, type CatalogModel } from './model-catalog.ts';

export interface InstallModelOptions {
  modelsDir: string;
  model: CatalogModel;
  /** Install even though the archive's SHA-256 cannot be checked (catalog and `expectedSha256` null). */
  trustUnverified?: boolean;
  /** SHA-256 to check instead of the catalog's, e.g. the digest shown on the GitHub release page. */
  expectedSha256?: string | null;
  /** Base replacing ASR_MODELS_RELEASE_URL (a mirror holding the same `<name>.tar.bz2` files). */
  mirrorUrl?: string;
  /** One download attempt, ms (default 1 hour). */
  timeoutMs?: number;
  /** Retries of a failed download (default 3, backoff 1 s doubled). */
  maxRetries?: number;
  retryBaseDelayMs?: number;
  /** Largest archive accepted, bytes (default 4 GiB). */
  maxBytes?: number;
  /** Unpacking, ms (default 10 minutes). */
  extractTimeoutMs?: number;
  onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
  signal?: AbortSignal;
}

export interface InstallModelResult {
  status: 'installed' | 'already-installed';
  /** `MODELS_DIR/<name>`. */
  directory: string;
  /** SHA-256 of the downloaded archive, or null when nothing was downloaded. */
  sha256: string | null;
  verified: boolean;
}

const run = promisify(execFile);

/** The archive URL, on the mirror when one is given. */
export function archiveUrlOf(model: CatalogModel, mirrorUrl?: string): string {
  if (!mirrorUrl) return model.archiveUrl;
  return mirrorUrl.replace(/\/*$/, '/') + model.archiveUrl.slice(ASR_MODELS_RELEASE_URL.length);
}

/** Refuses an archive whose SHA-256 differs from the expected one, or is unknown and not trusted. */
function checkSha256(model: CatalogModel, actual: string, options: InstallModelOptions): boolean {
  const expected = (options.expectedSha256 ?? model.sha256)?.toLowerCase() ?? null;
  if (expected !== null && expected !== actual) {
    throw new AppError('engine_unavailable', `SHA-256 mismatch for ${model.name}: expected ${expected}, the download has ${actual}; nothing was installed`);
  }
  if (expected === null && !options.trustUnverified) {
    throw new AppError('engine_unavailable',
      `No SHA-256 is known for ${model.name}, so the download cannot be verified; nothing was installed. ` +
      `The archive's SHA-256 is ${actual}: compare it with the digest on the release page, then run again with ` +
      `\`--sha256 ${actual}\` (checked) or \`--trust-unverified\``);
  }
  return expected !== null;
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

/**
 * Installs a catalog model into `MODELS_DIR/<name>`: downloads `<name>.tar.bz2` (official release
 * or mirror) into a staging folder inside MODELS_DIR, checks its SHA-256, unpacks it, checks every
 * file the family needs, writes `.install.json`, then renames the folder into place (replacing a
 * broken install). The staging folder is always removed: a failure leaves no partial install.
 * A model that is already ready is not downloaded again.
 * @throws AppError `engine_unavailable` (SHA-256 mismatch, unknown SHA-256 without trust, archive
 *   that fails to unpack or lacks a file), `upstream_refused` / `upstream_unreachable` (download);
 *   `signal.reason` when aborted.
 */
export async function installModel(options: InstallModelOptions): Promise<InstallModelResult> {
  const { model } = options;
  const current = await inspectInstalledModel(options.modelsDir, model);
  if (current.status === 'ready') {
    return { status: 'already-installed', directory: current.directory, sha256: current.install?.sha256 ?? null, verified: current.install?.verified ?? false };
  }
  await mkdir(options.modelsDir, { recursive: true });
  const staging = await mkdtemp(path.join(options.modelsDir, `.download-${model.name}-`));
  try {
    const url = archiveUrlOf(model, options.mirrorUrl);
    const archive = path.join(staging, `${model.name}.tar.bz2`);
    const { sha256 } = await downloadModelArchive({
      url, destination: archive, timeoutMs: options.timeoutMs ?? 3_600_000, maxRetries: options.maxRetries ?? 3,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 1000, maxBytes: options.maxBytes ?? 4 * 1024 ** 3,
      onProgress: options.onProgress, signal: options.signal,
    });
    const verified = checkSha256(model, sha256, options);
    await extractTarBz2(archive, path.join(staging, 'unpacked'), options.extractTimeoutMs ?? 600_000, options.signal);
    const unpacked = await inspectInstalledModel(path.join(staging, 'unpacked'), model);
    if (unpacked.status !== 'ready') {
      const problems = unpacked.status === 'absent' ? [`it has no folder ${model.name}/`] : unpacked.problems;
      throw new AppError('engine_unavailable', `The archive ${url} is not a complete ${model.name}: ${problems.join('; ')}; nothing was installed`);
    }
    const record: InstallRecord = { archiveUrl: url, sha256, verified, installedAt: new Date().toISOString() };
    await writeFile(path.join(unpacked.directory, INSTALL_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
    await moveIntoPlace(unpacked.directory, current.directory, staging);
    return { status: 'installed', directory: current.directory, sha256, verified };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Renames `from` to `to`; an existing (broken) `to` is first moved into `staging` to be removed with it. */
async function moveIntoPlace(from: string, to: string, staging: string): Promise<void> {
  const exists = await stat(to).then(() => true, () => false);
  if (exists) await rename(to, path.join(staging, 'replaced'));
  await rename(from, to);
}
