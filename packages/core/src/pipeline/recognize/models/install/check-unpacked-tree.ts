import { lstat, readdir, readlink, realpath, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../../platform/errors/app-error.ts';

/** Default limits of an unpacked model (docs/recognition.md, "Models and `npm run models`"). */
export const UNPACK_LIMITS = {
  /**
   * Total bytes of the unpacked files: 8 GiB. The catalog's largest archive (Parakeet TDT 0.6B,
   * int8 and fp32 files) unpacks to well under 4 GiB; bzip2 compresses runs of equal bytes so
   * far (over 10^5 : 1) that a small archive could otherwise fill the disk.
   */
  maxBytes: 8 * 1024 ** 3,
  /** Files, folders and links: 10,000 (the release's archives hold a few dozen at most). */
  maxEntries: 10_000,
} as const;

/** The limits an unpack is held to. */
export interface UnpackLimits {
  /** Total bytes of the unpacked files. */
  maxBytes: number;
  /** Number of entries (files, folders, links). */
  maxEntries: number;
}

/** The refusal of an archive or folder over `limits`, naming the limit. */
export function overLimitError(what: string, kind: 'bytes' | 'entries', found: string, limits: UnpackLimits): AppError {
  const limit = kind === 'bytes' ? `${limits.maxBytes} bytes` : `${limits.maxEntries} entries`;
  return new AppError('engine_unavailable',
    `${what} is refused: it unpacks to ${found}, over the limit of ${limit} for one model (no model of the catalog comes near it: ` +
    `this is an archive bomb or not a model); nothing was installed`);
}

function isInside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** A symbolic link found by walkTree: where it is, what it says, and what it resolves to. */
interface FoundLink {
  file: string;
  written: string;
  /** realpath of the link, or (dangling) its written target resolved against its folder. */
  resolved: string;
}

/**
 * Walks `root` with lstat (never following a link), counting entries and file bytes against
 * `limits` (sizes from lstat, so a sparse file counts with its full size).
 * @returns the symbolic links under it.
 * @throws overLimitError past a limit.
 */
async function walkTree(root: string, what: string, limits: UnpackLimits): Promise<FoundLink[]> {
  let entries = 0;
  let bytes = 0;
  const links: FoundLink[] = [];
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory)) {
      const file = path.join(directory, entry);
      const info = await lstat(file);
      entries += 1;
      if (entries > limits.maxEntries) throw overLimitError(what, 'entries', `more than ${limits.maxEntries} entries`, limits);
      if (info.isSymbolicLink()) {
        const written = await readlink(file);
        links.push({ file, written, resolved: await realpath(file).catch(() => path.resolve(directory, written)) });
      } else if (info.isDirectory()) {
        await walk(file);
      } else {
        bytes += info.size;
        if (bytes > limits.maxBytes) throw overLimitError(what, 'bytes', `more than ${limits.maxBytes} bytes`, limits);
      }
    }
  };
  await walk(root);
  return links;
}

function linkOutside(what: string, base: string, link: FoundLink, folderName: string): AppError {
  return new AppError('engine_unavailable',
    `${what} is refused: ${path.relative(base, link.file)} is a symbolic link to ${link.written}, outside the model's folder ${folderName}; ` +
    `links may only point inside the model's own folder; nothing was installed`);
}

/**
 * Checks what an unpack left in `unpackedRoot` before anything is activated: the model's folder
 * `unpackedRoot/<name>` must be a real folder (not a link), every symbolic link anywhere under
 * `unpackedRoot` must resolve inside `unpackedRoot/<name>` (lstat and realpath; a dangling link by
 * its written target), and the whole tree must stay within `limits`. A link leaving the model
 * folder would make the service read, and the installer write (`.install.json`), outside MODELS_DIR.
 * @param what how messages name the source, e.g. the archive URL.
 * @throws AppError `engine_unavailable`: `URL is refused: NAME/tokens.txt is a symbolic link to
 *   /etc/passwd, outside the model's folder NAME; …; nothing was installed`, a top folder that is
 *   a link, or over a limit (overLimitError).
 */
export async function checkUnpackedTree(unpackedRoot: string, name: string, what: string, limits: UnpackLimits): Promise<void> {
  const root = await realpath(unpackedRoot);
  const folder = path.join(root, name);
  const top = await lstat(folder).catch(() => null);
  if (top?.isSymbolicLink()) {
    throw new AppError('engine_unavailable',
      `${what} is refused: its top folder ${name} is a symbolic link (to ${await readlink(folder)}), not a folder; ` +
      `a model must be unpacked files, never a link out of MODELS_DIR; nothing was installed`);
  }
  for (const link of await walkTree(root, what, limits)) {
    if (!top || !isInside(folder, link.resolved)) throw linkOutside(what, root, link, name);
  }
}

/**
 * Checks a model folder given to `install DIR` before it is copied: within `limits`, and every
 * symbolic link under it resolving inside it.
 * @returns the folder's real path (the copy is made from there).
 * @throws AppError `engine_unavailable` for a link that leaves the folder or a folder over a limit;
 *   the file system's error when it cannot be read.
 */
export async function checkSourceFolder(directory: string, what: string, limits: UnpackLimits): Promise<string> {
  const root = await realpath(directory);
  for (const link of await walkTree(root, what, limits)) {
    if (!isInside(root, link.resolved)) throw linkOutside(what, root, link, path.basename(directory));
  }
  return root;
}

/**
 * After a folder was copied from `source` (its real path) to `copy` keeping links as written: an
 * absolute link still points into the source folder; it is rewritten relative, to the same file
 * inside the copy (relative links already do, and were checked by checkSourceFolder).
 */
export async function relinkAbsoluteLinks(source: string, copy: string): Promise<void> {
  for (const link of await walkTree(copy, copy, { maxBytes: Number.MAX_SAFE_INTEGER, maxEntries: Number.MAX_SAFE_INTEGER })) {
    if (!path.isAbsolute(link.written)) continue;
    const sourceTarget = await realpath(link.written).catch(() => path.resolve(link.written));
    const inCopy = path.join(copy, path.relative(source, sourceTarget));
    await unlink(link.file);
    await symlink(path.relative(path.dirname(link.file), inCopy), link.file);
  }
}
