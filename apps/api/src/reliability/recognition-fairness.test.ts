import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKeyFor,
  createLinkPrediction,
  fakeEngineEnv,
  waitForOutput,
  waitForPrediction,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

/** The prediction ids in the order the engine was asked to recognise them. */
const recognitionOrder = (service: SpawnedService) =>
  [...service.output().matchAll(/^\[fake-engine\] recognize (\S+)$/gm)].map((match) => match[1]!);

/**
 * Recognition slots are shared fairly (docs/reliability.md): among recordings waiting for the one
 * slot, a short clip of one key goes before a long recording of another key that waits with it.
 */
describe('fair recognition slots across keys', () => {
  let dataDir: string;
  let files: FileServer;
  let service: SpawnedService | null = null;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fairness-'));
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await service?.kill('SIGKILL');
    await files?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    "should give the freed slot to another key's 11 s clip before a 333 s recording queued earlier",
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const env = fakeEngineEnv(dataDir, null, { WORKER_CONCURRENCY: '3', RECOGNITION_CONCURRENCY: '1', FAKE_ENGINE_DELAY_MS: '600000' });
      service = await spawnService(env, SPAWN_TIMEOUT_MS);
      const [holderKey, longKey, shortKey] = [
        await createKeyFor(env, 'holder'),
        await createKeyFor(env, 'long'),
        await createKeyFor(env, 'short'),
      ];
      const holding = await createLinkPrediction(service.url, holderKey, { input: { audio: `${files.url}/jfk.wav?holder` } });
      await waitForOutput(service, new RegExp(`recognize ${holding}`), 60_000);
      const decoded = (p: Record<string, unknown>) => String(p.logs).includes('decoded');
      const long = await createLinkPrediction(service.url, longKey, { input: { audio: `${files.url}/long_hifitts6097_concat_16k.wav` } });
      await waitForPrediction(service.url, longKey, long, decoded, 120_000); // waiting for the slot
      const short = await createLinkPrediction(service.url, shortKey, { input: { audio: `${files.url}/jfk.wav?short` } });
      await waitForPrediction(service.url, shortKey, short, decoded, 120_000);
      // Free the slot: the holder is canceled, and its recognition stops.
      const cancel = await fetch(`${service.url}/v1/replicate/v1/predictions/${holding}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${holderKey}` },
      });
      expect(cancel.status).toBe(200);
      await waitForOutput(service, new RegExp(`recognize (${short}|${long})`), 60_000);
      expect(recognitionOrder(service)).toEqual([holding, short]);
    },
  );
});
