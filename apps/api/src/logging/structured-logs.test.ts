import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

type Line = Record<string, unknown>;

/** Structured logs (pino) of a running service, captured from its log stream. */
describe('structured logs', () => {
  let t: TestService;
  let files: FileServer;
  let raw = '';
  const lines = () =>
    raw
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as Line);

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        raw += chunk.toString('utf8');
        done();
      },
    });
    t = await startTestService('pglite', { LOG_LEVEL: 'info' }, { logDestination: destination });
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  it('should write one line per request with its id (also X-Request-Id), method, path, status, latency and key id, and never the key', async () => {
    const created = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', 'x-request-id': 'trace-42' },
      body: JSON.stringify({ input: { audio: `${files.url}/jfk.wav` } }),
    });
    expect(created.headers.get('x-request-id')).toBe('trace-42');
    const { id } = (await created.json()) as { id: string };
    const refused = await fetch(`${t.replicateBase}/v1/predictions/${id}?secret=1`, {
      headers: { authorization: 'Bearer tsk_not_a_real_key' },
    });
    expect(refused.status).toBe(401);
    const generated = refused.headers.get('x-request-id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    await pollPrediction(t.replicateBase, t.key, id);

    const requests = lines().filter((line) => line.msg === 'request completed' || line.msg === 'request errored');
    const create = requests.find((line) => line.req_id === 'trace-42');
    expect(create).toMatchObject({
      req: { method: 'POST', path: '/v1/replicate/v1/models/service/transcribe/predictions' },
      res: { status: 201 },
      prediction: id,
      level: 30,
    });
    expect(create!.key_id).toMatch(/^key_/);
    expect(typeof create!.ms).toBe('number');
    const denied = requests.find((line) => line.req_id === generated);
    expect(denied).toMatchObject({ req: { method: 'GET', path: `/v1/replicate/v1/predictions/${id}` }, res: { status: 401 }, level: 40 });
    expect(raw).not.toContain(t.key);
    expect(raw).not.toContain('tsk_');
    expect(raw).not.toContain('secret=1');
    expect(raw.toLowerCase()).not.toContain('authorization');
  });

  it("should write each stage of a prediction as a line with its id, then one 'finished' line with durations, audio seconds and the real-time factor", async () => {
    const answer = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: `${files.url}/librispeech-test-clean/1089-134686-0001.wav` } }),
    });
    const { id } = (await answer.json()) as { id: string };
    expect((await pollPrediction(t.replicateBase, t.key, id)).status).toBe('succeeded');
    const mine = lines().filter((line) => line.prediction === id && line.stage !== undefined);
    const stages = mine.map((line) => line.stage);
    for (const stage of ['downloaded', 'decoded', 'VAD', 'recognized', 'finished']) expect(stages, stage).toContain(stage);
    // The line that ends a stage carries its seconds.
    for (const msg of [/^downloaded /, /^decoded /, /^VAD: /, /^recognized 100%$/, /^diarized: /]) {
      const line = mine.find((entry) => msg.test(String(entry.msg)));
      expect(line?.seconds, String(msg)).toBeTypeOf('number');
      expect(line!.seconds as number).toBeGreaterThanOrEqual(0);
    }
    const finished = mine.find((line) => line.stage === 'finished')!;
    expect(finished).toMatchObject({ status: 'succeeded', channel: 'api', from_cache: false, msg: 'prediction succeeded' });
    expect(finished.total_seconds as number).toBeGreaterThan(0);
    expect(finished.audio_seconds as number).toBeGreaterThan(1);
    expect(finished.real_time_factor as number).toBeGreaterThan(0);
  });

  it('should write a failure with its error code', async () => {
    const answer = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: `${files.url}/missing.wav` } }),
    });
    const { id } = (await answer.json()) as { id: string };
    expect((await pollPrediction(t.replicateBase, t.key, id)).status).toBe('failed');
    const failure = lines().find((line) => line.prediction === id && line.level === 40 && line.error_code !== undefined);
    expect(failure).toMatchObject({ error_code: 'upstream_refused' });
    expect(String(failure!.msg)).toMatch(/^failed: /);
  });
});
