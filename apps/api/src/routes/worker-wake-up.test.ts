import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/** Idle workers poll only once a minute here: only the wake-up after a create can start a job sooner. */
const POLL_SECONDS = 60;

/**
 * A prediction created in the process that runs the worker starts at once
 * (platform/jobs/wake-transcribe-workers.ts), not after the queue's polling interval; a cached repeat then
 * ends within a second.
 */
describe('waking the local worker after a create', () => {
  let t: TestService;
  let files: FileServer;

  const create = async (input: Record<string, unknown>) => {
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
    const created = (await response.json()) as { id: string; status: string };
    expect(response.status).toBe(201);
    expect(created.status).toBe('processing'); // spec 3, 4.1: even a repeat is created processing
    return created.id;
  };

  beforeAll(async () => {
    t = await startTestService('postgres', {
      NODE_ENV: 'test',
      RECOGNITION_ENGINE: 'fake',
      WORKER_CONCURRENCY: '1',
      QUEUE_POLL_SECONDS: String(POLL_SECONDS),
    });
    files = await serveFiles(AUDIO_DIR);
    await sleep(1500); // the worker's first fetch at start-up is over: it now sleeps for POLL_SECONDS
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  it('should start a new prediction and a cached repeat long before the polling interval', async () => {
    const input = { audio: `${files.url}/jfk.wav`, language: 'en' };
    const firstId = await create(input);
    const first = await pollPrediction(t.replicateBase, t.key, firstId, (POLL_SECONDS / 2) * 1000);
    expect(first.status).toBe('succeeded');
    for (let i = 0; i < 2; i += 1) {
      const repeatId = await create(input);
      const repeat = await pollPrediction(t.replicateBase, t.key, repeatId, (POLL_SECONDS / 2) * 1000);
      expect(repeat.status).toBe('succeeded');
      expect(String(repeat.logs)).toContain('transcript taken from the cache');
      // Generous (the machine is shared), yet far below the interval a poll would have waited.
      expect((repeat.metrics as { total_time: number }).total_time).toBeLessThan(POLL_SECONDS / 4);
    }
  });
});
