import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { files, type FileRow } from '../../platform/db/schema.ts';
import { newPredictionId } from '../predictions/new-prediction-id.ts';
import type { ServiceContext } from '../../service-context.ts';
import { FILE_LIFETIME_SECONDS, FILES_FOLDER } from './public-file.ts';
import { purgeExpiredFiles } from './purge-expired-files.ts';

export interface CreateFileRequest {
  apiKeyId: string;
  /** A file already written under DATA_DIR (writeUploadFile); it is moved, not copied. */
  tempPath: string;
  /** Size in bytes. */
  bytes: number;
  /** Hex SHA-256 of the content. */
  sha256: string;
  name: string;
  contentType: string;
  metadata: Record<string, unknown>;
}

/**
 * Stores an uploaded file for `POST /v1/files`: moves the content to DATA_DIR/files/{id} and records
 * it for the key, expiring FILE_LIFETIME_SECONDS (24 h) from now. Expired files are purged first.
 * @returns the stored row.
 * @throws Error from the file system or the database (the temp file is then removed).
 */
export async function createFile(ctx: ServiceContext, request: CreateFileRequest): Promise<FileRow> {
  await purgeExpiredFiles(ctx.database.db);
  const id = newPredictionId();
  const dir = join(ctx.config.dataDir, FILES_FOLDER);
  const path = join(dir, id);
  try {
    await mkdir(dir, { recursive: true });
    await rename(request.tempPath, path);
    const createdAt = new Date();
    const [row] = await ctx.database.db
      .insert(files)
      .values({
        id,
        apiKeyId: request.apiKeyId,
        name: request.name,
        contentType: request.contentType,
        size: request.bytes,
        sha256: request.sha256,
        metadata: request.metadata,
        path,
        createdAt,
        expiresAt: new Date(createdAt.getTime() + FILE_LIFETIME_SECONDS * 1000),
      })
      .returning();
    if (!row) throw new Error('insert into files returned no row');
    return row;
  } catch (error) {
    await rm(request.tempPath, { force: true });
    await rm(path, { force: true });
    throw error;
  }
}
