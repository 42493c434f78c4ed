import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prettyFactory } from 'pino-pretty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceLockPath, type ServiceLockInfo } from '../service-lock.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';
import { PRETTY_OPTIONS } from './create-service-logger.ts';

type Line = Record<string, unknown> & { level: number; msg: string };

/** A multipart body of OpenAI's audio endpoints: `fields` and a `file` part. */
function audioForm(fields: Record<string, string>, file: Buffer): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(file)]), 'notes.wav');
  return form;
}

/**
 * What an operator reads in the logs of the real service (`npm start`'s entry, spawned): error
 * answers carry their code and reason, OpenAI requests their prediction, the terminal form names the
 * request in its headline, and a normal SIGTERM writes nothing at error level, even while the
 * first-start model probe is still waiting for its host.
 */
describe('log lines an operator can act on', () => {
  let dataDir: string;
  let service: SpawnedService;
  let key: string;
  let silentHost: Server;
  const lines = () =>
    service
      .output()
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as Line);
  const requestLine = (path: string, status: number) =>
    lines().find((line) => (line.req as { path?: string })?.path === path && (line.res as { status?: number })?.status === status);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'operator-logs-'));
    // A release "mirror" that takes the connection and never answers: the model probe is still waiting at the SIGTERM.
    silentHost = createServer(() => {});
    await new Promise<void>((done) => silentHost.listen(0, '127.0.0.1', done));
    const mirror = `http://127.0.0.1:${(silentHost.address() as { port: number }).port}`;
    service = await spawnService({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      MODELS_AUTO_INSTALL: mirror,
      MODELS_DIR: join(dataDir, 'models'),
    });
    const lock = JSON.parse(await readFile(serviceLockPath(dataDir), 'utf8')) as ServiceLockInfo;
    const created = await fetch(`${service.url}/internal/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': lock.adminToken },
      body: JSON.stringify({ label: 'logs' }),
    });
    key = ((await created.json()) as { secret: string }).secret;
  });

  afterAll(async () => {
    await service?.kill();
    silentHost?.closeAllConnections();
    silentHost?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should put the error code and a short reason on 4xx request lines, and the prediction on OpenAI request lines', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const invalid = await fetch(`${service.url}/v1/replicate/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: 'https://example.com/a.mp3', speakers: 0 } }),
    });
    expect(invalid.status).toBe(422);
    const typo = await fetch(`${service.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: auth,
      body: audioForm({ model: 'whisper-large-v3-typo' }, Buffer.from('RIFF')),
    });
    expect(typo.status).toBe(404);
    const notAudio = await fetch(`${service.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: auth,
      body: audioForm({ model: 'whisper-1' }, Buffer.from('not a recording at all')),
    });
    expect(notAudio.status).toBe(422);
    await new Promise((done) => setTimeout(done, 100)); // the lines are written when the answers close

    const invalidLine = requestLine('/v1/replicate/v1/models/service/transcribe/predictions', 422);
    expect(invalidLine).toMatchObject({ level: 40, error_code: 'invalid_input', reason: expect.stringMatching(/speakers/) });
    expect((invalidLine!.reason as string).length).toBeLessThanOrEqual(120);
    expect(requestLine('/v1/audio/transcriptions', 404)).toMatchObject({
      error_code: 'model_not_found',
      reason: expect.stringContaining('whisper-large-v3-typo'),
    });
    const failed = requestLine('/v1/audio/transcriptions', 422);
    expect(failed).toMatchObject({ error_code: 'media_unreadable', prediction: expect.stringMatching(/^[a-z0-9]+$/) });
    const stages = lines().filter((line) => line.prediction === failed!.prediction && line.stage !== undefined);
    expect(stages.length).toBeGreaterThan(0); // the id names the prediction whose stage lines say what happened

    // The terminal form (pino-pretty with the service's options) of these very lines.
    const pretty = prettyFactory({ ...PRETTY_OPTIONS, colorize: false });
    expect(pretty(invalidLine!).split('\n')[0]).toMatch(
      /WARN: POST \/v1\/replicate\/v1\/models\/service\/transcribe\/predictions 422 request completed \(invalid_input: .*speakers/,
    );
    const listening = lines().find((line) => line.msg.startsWith('listening on'))!;
    expect(pretty(listening).split('\n')[0]).toMatch(/INFO: listening on http/);
  });

  it('should stop on SIGTERM without a line at error level, while the model probe still waits', async () => {
    expect(await service.kill('SIGTERM')).toBe(0);
    const all = lines();
    expect(all.at(-1)).toMatchObject({ level: 30, signal: 'SIGTERM', exit_code: 0, msg: expect.stringMatching(/^stopped \(SIGTERM\)/) });
    expect(all.filter((line) => line.level >= 50)).toEqual([]);
  });
});
