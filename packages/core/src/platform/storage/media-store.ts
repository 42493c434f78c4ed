/**
 * Where stored downloads live (the media cache of spec 2.6): a local directory (the default,
 * `DATA_DIR/media`) or an S3-compatible bucket shared by API and worker machines. A `location` is
 * the string kept in `media_cache.path`: an absolute file path (local) or `s3://bucket/key` (S3).
 */
export interface MediaStore {
  /** `local` or `s3`. */
  readonly kind: 'local' | 's3';
  /** For logs, e.g. `/srv/data/media` or `s3://media/transcribe/`. */
  readonly description: string;
  /**
   * Stores the finished file `localPath` (`bytes` long) under the new file handle `id`.
   * @returns `location` for media_cache.path, and `readablePath`: a local file with the same bytes
   *   for this run (local: the stored file, `localPath` was moved there; S3: `localPath`, kept).
   * @throws Error naming the store when it refuses or cannot be reached (after bounded retries).
   */
  put(id: string, localPath: string, bytes: number): Promise<{ location: string; readablePath: string }>;
  /** Size of the stored object in bytes, or null when it does not exist. @throws Error when the store cannot be reached. */
  size(location: string): Promise<number | null>;
  /**
   * A local file to read `location` from: the stored file itself (local), or a copy downloaded to
   * `workPath` (S3; the caller's work directory, removed with it).
   * @throws Error when the object is missing or the store cannot be reached.
   */
  open(location: string, workPath: string, signal?: AbortSignal): Promise<string>;
  /** Deletes the stored object; a missing one is fine. */
  remove(location: string): Promise<void>;
}
