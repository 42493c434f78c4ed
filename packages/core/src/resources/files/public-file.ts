import type { FileRow } from '../../platform/db/schema.ts';

/** How long an uploaded file is kept, in seconds (24 hours; docs/api.md "Files"). */
export const FILE_LIFETIME_SECONDS = 24 * 60 * 60;

/** Folder of uploaded files under DATA_DIR. */
export const FILES_FOLDER = 'files';

/**
 * The File object of `POST /v1/files` and friends, as the Replicate clients expect it
 * (replicate-compat.md 3: id, name, content_type, size, etag, checksums, metadata, created_at,
 * expires_at, urls.get). Never the internal path.
 */
export interface PublicFile {
  id: string;
  name: string;
  content_type: string;
  /** Bytes. */
  size: number;
  etag: string;
  checksums: { sha256: string };
  metadata: Record<string, unknown>;
  created_at: string;
  expires_at: string;
  urls: { get: string };
}

/**
 * Maps a stored file to its public object. `urls.get` is absolute (`{apiBaseUrl}/files/{id}`), the
 * value the clients put into `input.audio` and the service resolves back to the stored file.
 * @param apiBaseUrl absolute base of the client-compatible API, no trailing slash.
 */
export function toPublicFile(row: FileRow, apiBaseUrl: string): PublicFile {
  return {
    id: row.id,
    name: row.name,
    content_type: row.contentType,
    size: row.size,
    etag: `"${row.sha256.slice(0, 32)}"`,
    checksums: { sha256: row.sha256 },
    metadata: row.metadata as Record<string, unknown>,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    urls: { get: fileUrl(apiBaseUrl, row.id) },
  };
}

/** `{apiBaseUrl}/files/{id}`. */
export function fileUrl(apiBaseUrl: string, id: string): string {
  return `${apiBaseUrl}/files/${id}`;
}
