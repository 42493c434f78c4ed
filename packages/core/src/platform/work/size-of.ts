import { stat } from 'node:fs/promises';

/**
 * Size of the file at `path` in bytes (following links).
 * @returns 0 when it cannot be read (the caller's own open reports the real error).
 */
export async function sizeOf(path: string): Promise<number> {
  return stat(path).then(
    (info) => info.size,
    () => 0,
  );
}
