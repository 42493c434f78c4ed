import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, type RecognitionEngine } from '@transcribe/core';
import { startTranscriptionServer, type TranscriptionServer } from '@transcribe/core/testing';
import { parseEnv } from './env.ts';
import { startService, type RunningService } from './start-service.ts';
import { createTestDatabase, type TestDatabase } from './test-support/create-test-database.ts';
import { pollPrediction } from './test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from './test-support/serve-files.ts';
import { AUDIO_DIR } from './test-support/shared-paths.ts';

/** What the GPU inference server can run at once (e.g. vLLM / speaches with 4 parallel requests). */
const GPU_CAPACITY = 4;
const SERVER_LATENCY_MS = 1_500;

/** Counts the recognitions a worker process ran (wraps its engine). */
function countRecognitions(service: RunningService): { count: number } {
  const counter = { count: 0 };
  const engine: RecognitionEngine = service.ctx.engine;
  service.ctx.engine = { ...engine, recognize: (request) => ((counter.count += 1), engine.recognize(request)) };
  return counter;
}

/**
 * The scale-out topology of docs/deployment.md in one test process: an API process
 * (WORKER_CONCURRENCY=0) and two worker processes sharing one PostgreSQL queue, recognising on a
 * remote OpenAI-compatible "GPU" server (the local server double, with latency) that refuses work
 * past its capacity with 429. Worker settings are matched to the capacity:
 * 2 workers × RECOGNITION_CONCURRENCY 1 × ASR_CONCURRENCY 2 = 4 requests in flight at most.
 */
describe('workers on a remote GPU inference server, concurrency matched to its capacity', () => {
  let gpu: TranscriptionServer;
  let database: TestDatabase;
  let files: FileServer;
  let dataDir: string;
  const services: RunningService[] = [];
  let inFlight = 0;
  let refused = 0;

  beforeAll(async () => {
    gpu = await startTranscriptionServer({
      script: async () => {
        if (inFlight >= GPU_CAPACITY) return ((refused += 1), { status: 429, headers: { 'retry-after': '1' } });
        inFlight += 1;
        await new Promise((resolve) => setTimeout(resolve, SERVER_LATENCY_MS));
        inFlight -= 1;
        return {};
      },
    });
    database = await createTestDatabase();
    files = await serveFiles(AUDIO_DIR);
    dataDir = await mkdtemp(join(tmpdir(), 'gpu-workers-'));
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      ALLOW_PRIVATE_NETWORK: '1',
      RECOGNITION_ENGINE: 'openai-compatible',
      ASR_BASE_URL: gpu.baseUrl,
      ASR_MODEL: 'whisper-large-v3',
      ASR_CONCURRENCY: '2',
      ASR_MAX_CHUNK_SECONDS: '4',
      RECOGNITION_CONCURRENCY: '1',
    };
    services.push(await startService(parseEnv({ ...env, WORKER_CONCURRENCY: '0' })));
    for (let i = 0; i < 2; i += 1) services.push(await startService(parseEnv({ ...env, WORKER_CONCURRENCY: '2' }), { http: false }));
  });

  afterAll(async () => {
    for (const service of services.reverse()) await service.stop();
    await files?.close();
    await gpu?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should fill the server up to its capacity, never past it, and share the jobs between the workers', async () => {
    const [api, ...workers] = services as [RunningService, RunningService, RunningService];
    const counters = workers.map(countRecognitions);
    const key = (await createApiKey(api.ctx.database.db, 'gpu')).secret;
    const base = `${api.url}/v1/replicate`;
    const ids = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const response = await fetch(`${base}/v1/models/service/transcribe/predictions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ input: { audio: `${files.url}/jfk.wav?copy=${i}`, language: 'en' } }),
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { id: string }).id;
      }),
    );
    const done = await Promise.all(ids.map((id) => pollPrediction(base, key, id, 120_000)));
    expect(done.map((p) => p.status)).toEqual(Array(6).fill('succeeded'));
    expect(gpu.requests.length).toBeGreaterThanOrEqual(6 * 2); // jfk.wav (11 s) is cut into chunks of at most 4 s
    expect(refused).toBe(0);
    expect(gpu.maxInFlight).toBeLessThanOrEqual(GPU_CAPACITY);
    expect(gpu.maxInFlight).toBe(GPU_CAPACITY);
    expect(counters.map((c) => c.count > 0)).toEqual([true, true]);
    expect(counters[0]!.count + counters[1]!.count).toBe(6);
  });
});
