import { createS3MediaStore, type MediaStore } from '@transcribe/core';
import type { Logger } from 'pino';
import type { Env } from './env.ts';

/**
 * The media store from MEDIA_STORE: undefined for `local` (core then keeps stored downloads in
 * DATA_DIR/media), or the S3-compatible bucket of the S3_* variables. Logs which store through
 * `logger` (component `storage`; without one nothing is logged).
 * @throws Error naming the missing variable when MEDIA_STORE=s3 lacks S3_BUCKET, or has only one
 *   of S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY.
 */
export function selectMediaStore(env: Env, logger?: Pick<Logger, 'info'>): MediaStore | undefined {
  if (env.MEDIA_STORE === 'local') return undefined;
  if (!env.S3_BUCKET)
    throw new Error('MEDIA_STORE=s3 needs S3_BUCKET (and S3_ENDPOINT with S3_FORCE_PATH_STYLE=1 for MinIO); see docs/deployment.md.');
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    throw new Error('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (to use the AWS default credentials chain).');
  }
  const store = createS3MediaStore({
    bucket: env.S3_BUCKET,
    prefix: env.S3_PREFIX,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    timeoutMs: env.S3_TIMEOUT_MS,
  });
  logger?.info({ component: 'storage' }, `stored downloads in ${store.description}${env.S3_ENDPOINT ? ` at ${env.S3_ENDPOINT}` : ''}`);
  return store;
}
