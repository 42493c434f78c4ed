import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Replicate031 from 'replicate-0.31';
import Replicate14 from 'replicate-1.4';
import { files, predictions } from '@transcribe/core';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const CLIP = 'librispeech-test-clean/1089-134686-0001.wav';

/** The real npm clients, unchanged, with the base URL documented for JS: `{base}/v1/replicate/v1`. */
const CLIENTS = [
  { name: 'replicate 0.31.1', make: (auth: string, baseUrl: string) => new Replicate031({ auth, baseUrl }) },
  { name: 'replicate 1.4.0', make: (auth: string, baseUrl: string) => new Replicate14({ auth, baseUrl }) },
];

describe.each(['pglite', 'postgres'] as const)('predictions.create / get / cancel / list of the npm clients on %s', (kind) => {
  let t: TestService;
  let audio: FileServer;
  let clip: Buffer;
  let hanging: Server;
  let hangingUrl: string;

  beforeAll(async () => {
    t = await startTestService(kind);
    audio = await serveFiles(AUDIO_DIR);
    clip = await readFile(join(AUDIO_DIR, CLIP));
    hanging = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(10 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
    });
    await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', done));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}/slow.wav`;
  });

  afterAll(async () => {
    hanging?.closeAllConnections();
    await new Promise((done) => hanging?.close(done));
    await audio?.close();
    await t?.stop();
  });

  const client = (make: (typeof CLIENTS)[number]['make']) => make(t.key, `${t.replicateBase}/v1`);

  it.each(CLIENTS)('should create by model with webhook fields and get until succeeded with $name', async ({ make }) => {
    const replicate = client(make);
    const created = await replicate.predictions.create({
      model: 'service/transcribe',
      input: { audio: `${audio.url}/${CLIP}` },
      webhook: 'https://hooks.example.invalid/hook',
      webhook_events_filter: ['start', 'completed'],
    });
    expect(created.status).toBe('processing');
    let done = await replicate.predictions.get(created.id);
    for (let tries = 0; !['succeeded', 'failed'].includes(done.status) && tries < 600; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      done = await replicate.predictions.get(created.id);
    }
    expect(done.status, String(done.error)).toBe('succeeded');
    expect((done.output as { source: { format: string } }).source.format).toBe('wav');
    const [row] = await t.service.ctx.database.db.select().from(predictions).where(eq(predictions.id, created.id));
    expect(row?.webhookEventsFilter).toEqual(['start', 'completed']);
  });

  it.runIf(kind === 'pglite').each(CLIENTS)('should upload a Buffer input through /v1/files with $name', async ({ make }) => {
    const replicate = client(make);
    const before = await t.service.ctx.database.db.$count(files);
    const created = await replicate.predictions.create({ version: 'service/transcribe', input: { audio: clip, output_format: 'text' } });
    expect(String((created.input as { audio: unknown }).audio)).toMatch(
      new RegExp(`^${t.service.ctx.config.apiBaseUrl}/files/[a-z2-7]{26}$`),
    );
    expect(await t.service.ctx.database.db.$count(files)).toBe(before + 1);
    const done = await replicate.wait(created, { interval: 250 });
    expect(done.status, String(done.error)).toBe('succeeded');
    expect(String(done.output)).toMatch(/^\[\d\d:\d\d:\d\d/);
  });

  it.runIf(kind === 'pglite').each(CLIENTS)('should transcribe a data: URI input with $name', async ({ make }) => {
    const replicate = client(make);
    const created = await replicate.predictions.create({
      version: 'service/transcribe',
      input: { audio: `data:audio/wav;base64,${clip.toString('base64')}`, output_format: 'srt' },
    });
    const done = await replicate.wait(created, { interval: 250 });
    expect(done.status, String(done.error)).toBe('succeeded');
    expect(String(done.output)).toMatch(/-->/);
  });

  it.runIf(kind === 'pglite').each(CLIENTS)('should cancel a processing prediction with $name', async ({ make }) => {
    const replicate = client(make);
    const created = await replicate.predictions.create({ model: 'service/transcribe', input: { audio: hangingUrl } });
    const canceled = await replicate.predictions.cancel(created.id);
    expect(canceled.status).toBe('canceled');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await replicate.predictions.get(created.id)).status).toBe('canceled');
    const again = await replicate.predictions.cancel(created.id);
    expect(again.status).toBe('canceled');
  });

  it.runIf(kind === 'pglite').each(CLIENTS)('should list and paginate the key’s predictions with $name', async ({ make }) => {
    const replicate = client(make);
    const page = await replicate.predictions.list();
    const stored = await t.service.ctx.database.db.$count(predictions);
    expect(page.results.length).toBe(Math.min(stored, 100));
    const times = page.results.map((prediction) => Date.parse(String(prediction.created_at)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const seen: string[] = [];
    for await (const batch of replicate.paginate(() => replicate.predictions.list()))
      seen.push(...batch.map((prediction) => prediction.id));
    expect(seen.length).toBe(stored);
  });
});
