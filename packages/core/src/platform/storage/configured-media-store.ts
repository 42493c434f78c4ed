import { join } from 'node:path';
import type { ServiceConfig } from '../../service-context.ts';
import { createLocalMediaStore } from './local-media-store.ts';
import type { MediaStore } from './media-store.ts';

/** The configured store, or the local directory `dataDir/media` when none is set. */
export function mediaStoreOf(config: Pick<ServiceConfig, 'dataDir' | 'mediaStore'>): MediaStore {
  return config.mediaStore ?? createLocalMediaStore(join(config.dataDir, 'media'));
}
