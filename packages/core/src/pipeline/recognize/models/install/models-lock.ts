import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../../platform/errors/app-error.ts';

/** The lock file inside MODELS_DIR: which archive each model name was first installed from. */
export const MODELS_LOCK_FILE = 'models.lock.json';

/** What the lock file pins for one model name. */
export interface ModelLockEntry {
  /** Where the pinned archive came from: a release URL, or `file://` for a local archive or folder. */
  url: string;
  /** Size of the archive, bytes (for a folder install: the model files' total). */
  bytes: number;
  /** SHA-256 of the archive (64 lowercase hex digits), or null when it was installed from a folder. */
  sha256: string | null;
  /**
   * SHA-256 over the model files the catalog names (hash-model-files.ts): lets a folder install and
   * an archive install of the same model be compared.
   */
  contentSha256: string;
  /** ISO 8601 time the pin was made. */
  pinnedAt: string;
}

/** `models.lock.json`, format version 1; `models` is keyed by catalog name. */
export interface ModelsLock {
  lockfileVersion: 1;
  models: Record<string, ModelLockEntry>;
}

/** The lock file's path for MODELS_DIR `modelsDir`. */
export function modelsLockPath(modelsDir: string): string {
  return path.join(path.resolve(modelsDir), MODELS_LOCK_FILE);
}

/**
 * Reads `MODELS_DIR/models.lock.json`; a missing file is an empty lock.
 * @throws AppError `engine_unavailable` when the file exists but is not a version-1 lock (a damaged
 *   lock must not silently turn into trust-on-first-use again).
 */
export async function readModelsLock(modelsDir: string): Promise<ModelsLock> {
  const file = modelsLockPath(modelsDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lockfileVersion: 1, models: {} };
    throw error;
  }
  try {
    const lock = JSON.parse(text) as ModelsLock;
    if (lock.lockfileVersion !== 1 || typeof lock.models !== 'object' || lock.models === null) throw new Error('not a version 1 lock file');
    return lock;
  } catch (error) {
    throw new AppError('engine_unavailable', `${file} is damaged (${(error as Error).message}); restore it from version control or delete it to pin again`, { cause: error });
  }
}

/** What readModelsLockForListing could read, and one line per damaged part saying how to repair it. */
export interface ReadableModelsLock {
  /** The entries that are whole (damaged ones left out). */
  lock: ModelsLock;
  /** e.g. `entry "NAME" of /m/models.lock.json is damaged (sha256 is not 64 hex digits): …`. */
  damaged: string[];
}

/** What is wrong with one entry of the lock, or null when it is whole. */
function entryProblem(entry: unknown): string | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'it is not an object';
  const pin = entry as Record<string, unknown>;
  const hex = (value: unknown) => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
  if (typeof pin.url !== 'string' || pin.url === '') return 'url is not a text';
  if (typeof pin.bytes !== 'number' || !Number.isSafeInteger(pin.bytes) || pin.bytes < 0) return 'bytes is not a whole number of bytes';
  if (pin.sha256 !== null && !hex(pin.sha256)) return 'sha256 is neither null nor 64 lowercase hex digits';
  if (!hex(pin.contentSha256)) return 'contentSha256 is not 64 lowercase hex digits';
  if (typeof pin.pinnedAt !== 'string') return 'pinnedAt is not a text';
  return null;
}

/**
 * Reads `MODELS_DIR/models.lock.json` for showing it (`npm run models -- list`, `catalog`): never
 * throws for a damaged file, but keeps what can be read and says, per damaged entry or for the
 * whole file, what is wrong and how to repair it. Installs keep to readModelsLock, which refuses
 * a damaged file.
 * @throws only the file system's errors other than a missing file.
 */
export async function readModelsLockForListing(modelsDir: string): Promise<ReadableModelsLock> {
  const file = modelsLockPath(modelsDir);
  const empty = (): ModelsLock => ({ lockfileVersion: 1, models: {} });
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lock: empty(), damaged: [] };
    throw error;
  }
  const wholeFile = (reason: string) => ({
    lock: empty(),
    damaged: [`${file} is damaged (${reason}): no pin can be read, and installs refuse to run until it is repaired; restore it from version control or a backup, or delete it (the next install of each model then pins again)`],
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return wholeFile((error as Error).message);
  }
  const lock = parsed as Partial<ModelsLock> | null;
  if (typeof lock !== 'object' || lock === null || lock.lockfileVersion !== 1 || typeof lock.models !== 'object' || lock.models === null || Array.isArray(lock.models)) {
    return wholeFile('not a version 1 lock file');
  }
  const result: ReadableModelsLock = { lock: empty(), damaged: [] };
  for (const [name, entry] of Object.entries(lock.models as Record<string, unknown>)) {
    const problem = entryProblem(entry);
    if (problem === null) result.lock.models[name] = entry as ModelLockEntry;
    else result.damaged.push(`entry "${name}" of ${file} is damaged (${problem}): correct it by hand from another copy of the file, or drop it with \`npm run models -- remove ${name} --unpin\` (the next install of ${name} then pins again)`);
  }
  return result;
}

/** Writes the lock atomically (temporary file, then rename), names sorted so diffs stay small. */
export async function writeModelsLock(modelsDir: string, lock: ModelsLock): Promise<void> {
  const file = modelsLockPath(modelsDir);
  const models = Object.fromEntries(Object.entries(lock.models).sort(([a], [b]) => a.localeCompare(b)));
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ lockfileVersion: 1, models }, null, 2)}\n`);
  await rename(temporary, file);
}

/**
 * Compares an archive or folder with the pin for `name` (lockfile semantics: trust on first use,
 * then every later install must be byte-identical). The archive hash is compared when both sides
 * have one; otherwise the model-files hash.
 * @throws AppError `engine_unavailable` naming both hashes, where the pin came from and how to
 *   re-pin on purpose.
 */
export function checkAgainstPin(name: string, pin: ModelLockEntry | undefined, found: { sha256: string | null; contentSha256: string | null; url: string }, lockFile: string): void {
  if (!pin) return;
  const compareArchive = pin.sha256 !== null && found.sha256 !== null;
  const [kind, pinned, actual] = compareArchive ? ['archive SHA-256', pin.sha256, found.sha256] : ['model files SHA-256', pin.contentSha256, found.contentSha256];
  if (actual === null || pinned === actual) return;
  throw new AppError('engine_unavailable',
    `${found.url} does not match the pin for ${name} in ${lockFile}: ${kind} pinned ${pinned} ` +
    `(from ${pin.url}, ${pin.pinnedAt}), this one has ${actual}; nothing was installed. ` +
    `If the new archive is wanted, drop the pin with \`npm run models -- remove ${name} --unpin\` and install again`);
}
