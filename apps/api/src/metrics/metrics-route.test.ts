import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';
import { startWebhookReceiver } from '../test-support/start-webhook-receiver.ts';

/** The value of one sample of the Prometheus text format, e.g. `name{a="b"}`; 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** `GET /metrics` (Prometheus text format), scraped after real predictions through the API. */
describe('GET /metrics', () => {
  let t: TestService;
  let files: FileServer;

  beforeAll(async () => {
    t = await startTestService('pglite', { RATE_LIMIT_READS_PER_MINUTE: '1000' });
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  const create = async (audio: string) => {
    const answer = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio } }),
    });
    return pollPrediction(t.replicateBase, t.key, ((await answer.json()) as { id: string }).id);
  };
  const scrape = async () => {
    const answer = await fetch(`${t.url}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return answer.text();
  };

  it('should count created and finished predictions by status, error code, engine and channel, with their durations and audio', async () => {
    const engine = t.service.ctx.engine.name;
    expect((await create(`${files.url}/jfk.wav`)).status).toBe('succeeded');
    expect((await create(`${files.url}/jfk.wav`)).status).toBe('succeeded'); // a repeat: the cached transcript
    expect((await create(`${files.url}/no-such-file.wav`)).status).toBe('failed');
    const text = await scrape();
    expect(sample(text, 'transcribe_predictions_created_total{channel="api"}')).toBe(3);
    expect(sample(text, `transcribe_predictions_finished_total{status="succeeded",error_code="",engine="${engine}",channel="api"}`)).toBe(
      2,
    );
    expect(
      sample(text, `transcribe_predictions_finished_total{status="failed",error_code="upstream_refused",engine="${engine}",channel="api"}`),
    ).toBe(1);
    expect(sample(text, 'transcribe_prediction_seconds_count{status="succeeded"}')).toBe(2);
    expect(sample(text, 'transcribe_prediction_queue_seconds_count')).toBe(3);
    expect(sample(text, 'transcribe_audio_seconds_total')).toBeCloseTo(2 * 11, 0); // jfk.wav is 11 s, twice
    expect(sample(text, 'transcribe_cached_transcripts_total')).toBe(1);
    expect(sample(text, 'transcribe_real_time_factor_count')).toBe(1);
    expect(text).toMatch(/^transcribe_queue_jobs\{state="waiting"\} 0$/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('should time each stage of a recognised prediction in transcribe_stage_seconds', async () => {
    const stages = ['download', 'decode', 'vad', 'recognition', 'diarization'];
    const count = (text: string, stage: string) => sample(text, `transcribe_stage_seconds_count{stage="${stage}"}`);
    const sum = (text: string, stage: string) => sample(text, `transcribe_stage_seconds_sum{stage="${stage}"}`);
    const before = await scrape();
    // A link not asked for before: downloaded and recognised (PocketSphinx), not taken from the cache.
    expect((await create(`${files.url}/librispeech-test-clean/1089-134686-0000.wav`)).status).toBe('succeeded');
    const after = await scrape();
    for (const stage of stages) {
      expect(count(after, stage) - count(before, stage), stage).toBe(1);
      expect(sum(after, stage) - sum(before, stage), stage).toBeGreaterThan(0);
    }
    expect(sum(after, 'recognition') - sum(before, 'recognition')).toBeGreaterThan(sum(after, 'vad') - sum(before, 'vad')); // PocketSphinx is the slow stage
    expect(count(after, 'post_processing')).toBe(0); // none was asked for
    expect(after).toMatch(/^transcribe_stage_seconds_bucket\{le="0\.01",stage="vad"\} \d+$/m);
  });

  it('should count webhook delivery attempts by event and outcome', async () => {
    const hooks = await startWebhookReceiver();
    try {
      const answer = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          input: { audio: `${files.url}/jfk.wav` },
          webhook: `${hooks.url}/ok`,
          webhook_events_filter: ['completed'],
        }),
      });
      const { id } = (await answer.json()) as { id: string };
      await pollPrediction(t.replicateBase, t.key, id);
      await hooks.waitFor('/ok', (entries) => entries.length >= 1, 60_000);
      let delivered = 0;
      for (let tries = 0; tries < 50 && delivered < 1; tries++) {
        delivered = sample(await scrape(), 'transcribe_webhook_attempts_total{event="completed",outcome="delivered"}');
        if (delivered < 1) await sleep(100); // the attempt is counted once its log row is written, just after the answer
      }
      expect(delivered).toBe(1);
    } finally {
      await hooks.close();
    }
  });

  it('should count rate-limit refusals, and never show a key', async () => {
    const limited = await startTestService('pglite', { WORKER_CONCURRENCY: '0', RATE_LIMIT_READS_PER_MINUTE: '1' });
    try {
      const list = () => fetch(`${limited.replicateBase}/v1/predictions`, { headers: { authorization: `Bearer ${limited.key}` } });
      expect((await list()).status).toBe(200);
      expect((await list()).status).toBe(429);
      const text = await (await fetch(`${limited.url}/metrics`)).text();
      expect(sample(text, 'transcribe_rate_limited_total{kind="read"}')).toBe(1);
      expect(text).not.toContain(limited.key);
      expect(text).not.toContain('tsk_');
    } finally {
      await limited.stop();
    }
  });

  it("should ask for METRICS_TOKEN as a Bearer token when it is set, on the API and on a worker's METRICS_PORT", async () => {
    const token = 'metrics-token-0123456789';
    const guarded = await startTestService('pglite', { WORKER_CONCURRENCY: '0', METRICS_TOKEN: token });
    const { serveMetrics } = await import('./serve-metrics.ts');
    const { Registry } = await import('prom-client');
    const worker = await serveMetrics(new Registry(), 0, '127.0.0.1', token);
    try {
      const workerUrl = `http://127.0.0.1:${(worker.address() as { port: number }).port}/metrics`;
      for (const url of [`${guarded.url}/metrics`, workerUrl]) {
        const bare = await fetch(url);
        expect(bare.status).toBe(401);
        expect(bare.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
        expect(await bare.text()).toContain('Authorization: Bearer <METRICS_TOKEN>');
        const wrong = await fetch(url, { headers: { authorization: `Bearer ${token}x` } });
        expect(wrong.status).toBe(401);
        expect(await wrong.text()).toContain('wrong');
        const right = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        expect(right.status).toBe(200);
        expect(await right.text()).not.toContain(token);
      }
      expect((await fetch(`${t.url}/metrics`)).status).toBe(200); // without METRICS_TOKEN: open, as Prometheus expects
    } finally {
      worker.close();
      await guarded.stop();
    }
  });
});
