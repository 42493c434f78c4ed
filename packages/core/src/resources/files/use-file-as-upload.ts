import { copyFile, link, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppError, isAppError } from '../../platform/errors/app-error.ts';
import type { ServiceContext } from '../../service-context.ts';
import { findFile } from './find-file.ts';

/** Path of the API under the public root, after which `/files/{id}` follows. */
const API_PATHS = ['/v1/replicate/v1', '/v1/replicate'];

/**
 * Recognises `input.audio` values that name a file uploaded to this service: its `urls.get`
 * (`{apiBaseUrl}/files/{id}`), also without the inner `/v1` or with `/download` appended.
 * Only URLs of the service's own public origin count; anything else is an ordinary link.
 * @param apiBaseUrl absolute base of the client-compatible API (`…/v1/replicate/v1`).
 * @returns the file id, or null.
 */
export function parseFileUrl(value: unknown, apiBaseUrl: string): string | null {
  if (typeof value !== 'string' || !/^\s*https?:\/\//i.test(value)) return null;
  let url: URL;
  let base: URL;
  try {
    url = new URL(value.trim());
    base = new URL(apiBaseUrl);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.search !== '') return null;
  const root = API_PATHS.reduce((path, suffix) => (path.endsWith(suffix) ? path.slice(0, -suffix.length) : path), base.pathname);
  for (const api of API_PATHS) {
    const prefix = `${root}${api}/files/`;
    if (!url.pathname.startsWith(prefix)) continue;
    const match = /^([a-z2-7]{26})(?:\/download)?$/.exec(url.pathname.slice(prefix.length));
    if (match) return match[1] as string;
  }
  return null;
}

/**
 * Gives a prediction its own link to an uploaded file's content (a hard link under
 * DATA_DIR/uploads, a copy when linking is impossible), so deleting or expiring the file later does
 * not take the recording away from the prediction.
 * @returns the `upload` argument of createPrediction.
 * @throws AppError `invalid_input` (HTTP 422, param `audio`) when the key has no such unexpired file.
 */
export async function useFileAsUpload(
  ctx: ServiceContext,
  fileId: string,
  apiKeyId: string,
): Promise<{ path: string; bytes: number; name: string }> {
  const file = await findFile(ctx.database.db, fileId, apiKeyId).catch((error: unknown) => {
    if (!isAppError(error, 'not_found')) throw error;
    throw new AppError(
      'invalid_input',
      'audio names a file uploaded to this service that does not exist for this API key or has expired (files are kept 24 hours); upload it again.',
      { param: 'audio' },
    );
  });
  const dir = join(ctx.config.dataDir, 'uploads');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `file-${file.id}-${randomBytes(6).toString('hex')}`);
  await link(file.path, path).catch(() => copyFile(file.path, path));
  return { path, bytes: file.size, name: file.name };
}
