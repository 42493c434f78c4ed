import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeEngine } from '../../test-support/create-fake-engine.ts';
import { createLinkPrediction, isSettled, waitForPrediction } from '../test-support/fake-engine-service.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const JOBS = 8;

describe('back-pressure: bounded recognitions, the rest queued, GET fast', () => {
  let t: TestService;
  let files: FileServer;

  beforeAll(async () => {
    t = await startTestService('postgres', {
      RECOGNITION_ENGINE: 'fake',
      ALLOW_FAKE_ENGINE: '1',
      FAKE_ENGINE_DELAY_MS: '800',
      WORKER_CONCURRENCY: '3',
      RECOGNITION_CONCURRENCY: '1',
    });
    files = await serveFiles(join(AUDIO_DIR, 'librispeech-test-clean'));
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  it('should run one recognition at a time, keep excess jobs queued and answer GETs quickly meanwhile', async () => {
    const ids: string[] = [];
    for (let n = 0; n < JOBS; n++)
      ids.push(await createLinkPrediction(t.url, t.key, { input: { audio: `${files.url}/1089-134686-0001.wav?bp=${n}` } }));
    const latencies: number[] = [];
    let maxActiveJobs = 0;
    let sawQueued = false;
    const engine = t.service.ctx.engine as FakeEngine;
    while (engine.stats.calls < JOBS || engine.stats.active > 0) {
      const started = performance.now();
      const response = await fetch(`${t.replicateBase}/v1/predictions/${ids[latencies.length % JOBS]}`, {
        headers: { authorization: `Bearer ${t.key}` },
      });
      await response.json();
      latencies.push(performance.now() - started);
      const { rows } = await t.service.ctx.database.executeSql(
        `SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = 'transcribe' GROUP BY state`,
      );
      const count = (state: string) => (rows as { state: string; n: number }[]).find((row) => row.state === state)?.n ?? 0;
      // Jobs being worked on: active in the queue, their prediction not yet ended. A job whose
      // prediction has ended can stay `active` a moment longer, until pg-boss records its completion.
      const working = await t.service.ctx.database.executeSql(
        `SELECT count(*)::int AS n FROM pgboss.job j JOIN predictions p ON p.id = j.data->>'predictionId' WHERE j.name = 'transcribe' AND j.state = 'active' AND p.status = 'processing'`,
      );
      maxActiveJobs = Math.max(maxActiveJobs, (working.rows[0] as { n: number }).n);
      sawQueued ||= count('created') > 0 && count('active') > 0;
      await sleep(50);
    }
    for (const id of ids) expect((await waitForPrediction(t.url, t.key, id, isSettled, 60_000)).status).toBe('succeeded');
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]!;
    console.log(
      `back-pressure: ${latencies.length} GETs while busy, p50 ${latencies[Math.floor(latencies.length / 2)]!.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; most jobs active ${maxActiveJobs}, most recognitions at once ${engine.stats.maxActive}`,
    );
    expect(engine.stats.maxActive).toBe(1); // RECOGNITION_CONCURRENCY
    expect(maxActiveJobs).toBeLessThanOrEqual(3); // WORKER_CONCURRENCY
    expect(sawQueued).toBe(true);
    expect(latencies.length).toBeGreaterThan(20);
    expect(p99).toBeLessThan(1000);
  });
});
