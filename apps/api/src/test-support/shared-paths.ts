import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Repository root (two levels above apps/api). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** `shared/audio` beside the checkout (CI clones main with shared/ beside it); SHARED_AUDIO_DIR overrides. */
export const AUDIO_DIR = process.env.SHARED_AUDIO_DIR ?? join(REPO_ROOT, '..', 'shared', 'audio');

/** PostgreSQL server used by the tests (trust auth); each test file makes its own database on it. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
