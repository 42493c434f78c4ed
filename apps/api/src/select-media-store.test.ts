import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.ts';
import { selectMediaStore } from './select-media-store.ts';

describe('selectMediaStore', () => {
  it('should leave the local default (DATA_DIR/media) when MEDIA_STORE is unset', () => {
    expect(selectMediaStore(parseEnv({}))).toBeUndefined();
  });

  it('should build the S3 store from the S3_* variables', () => {
    const store = selectMediaStore(
      parseEnv({
        MEDIA_STORE: 's3',
        S3_BUCKET: 'media',
        S3_PREFIX: 'transcribe/',
        S3_ENDPOINT: 'http://minio:9000',
        S3_FORCE_PATH_STYLE: '1',
      }),
    );
    expect(store?.kind).toBe('s3');
    expect(store?.description).toBe('s3://media/transcribe/');
  });

  it('should refuse MEDIA_STORE=s3 without a bucket, naming the variable', () => {
    expect(() => selectMediaStore(parseEnv({ MEDIA_STORE: 's3' }))).toThrow(/MEDIA_STORE=s3 needs S3_BUCKET/);
  });

  it('should refuse half a pair of static credentials', () => {
    expect(() => selectMediaStore(parseEnv({ MEDIA_STORE: 's3', S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'key' }))).toThrow(
      /both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
    );
  });
});
