import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test-support/create-test-database.ts';
import { spawnService } from './test-support/spawn-service.ts';

const RECORDER = new URL('./test-support/record-loaded-packages.mjs', import.meta.url).pathname;

let database: TestDatabase;
let scratch: string;

beforeAll(async () => {
  database = await createTestDatabase();
  scratch = await mkdtemp(join(tmpdir(), 'idle-packages-'));
});
afterAll(async () => {
  await database.drop();
  await rm(scratch, { recursive: true, force: true });
});

/** The npm packages an idle service (started, /health answered, then stopped) has loaded. */
async function packagesOfIdleService(env: Record<string, string>): Promise<string[]> {
  const listFile = join(scratch, 'packages.txt');
  const service = await spawnService({
    DATABASE_URL: database.url,
    DATA_DIR: join(scratch, 'data'),
    WORKER_CONCURRENCY: '1',
    NODE_OPTIONS: `--import ${RECORDER}`,
    LOADED_PACKAGES_FILE: listFile,
    ...env,
  });
  await service.kill();
  return (await readFile(listFile, 'utf8')).split('\n');
}

describe('idle service memory', () => {
  it('should not load PGlite, the tokenizer, the bot, sherpa-onnx, the S3 client or playwright until used', async () => {
    const loaded = await packagesOfIdleService({
      RECOGNITION_ENGINE: 'openai-compatible',
      ASR_BASE_URL: 'http://127.0.0.1:9/v1',
      ASR_MODEL: 'any',
    });
    expect(loaded).toEqual(expect.arrayContaining(['express', 'openai', 'postgres'])); // the recorder sees loads
    const heavy = loaded.filter((name) =>
      /^(@electric-sql\/pglite|gpt-tokenizer|grammy|@grammyjs\/|sherpa-onnx|@aws-sdk\/|playwright)/.test(name),
    );
    expect(heavy).toEqual([]);
  }, 60_000);
});
