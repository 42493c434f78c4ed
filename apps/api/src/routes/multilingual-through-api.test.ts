import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictions } from '@transcribe/core';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const MODEL = '/v1/models/service/transcribe/predictions';

/** Spec 2.2 `multilingual` on an engine that cannot tell languages apart (422 before download). */
describe('multilingual through the API on PocketSphinx (English only)', () => {
  let t: TestService;
  let linkServer: Server;
  let link: string;
  let linkHits = 0;

  beforeAll(async () => {
    // No workers: an accepted prediction stays queued, nothing is downloaded or recognised.
    t = await startTestService('pglite', { RECOGNITION_ENGINE: 'pocketsphinx', WORKER_CONCURRENCY: '0' });
    linkServer = createServer((_req, res) => {
      linkHits += 1;
      res.writeHead(404).end();
    });
    await new Promise<void>((done) => linkServer.listen(0, '127.0.0.1', done));
    link = `http://127.0.0.1:${(linkServer.address() as { port: number }).port}/talk.wav`;
  });

  afterAll(async () => {
    await new Promise((done) => linkServer?.close(done));
    await t?.stop();
  });

  const create = (body: string | FormData) =>
    fetch(`${t.replicateBase}${MODEL}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}) },
      body,
    });

  it('should refuse multilingual true with 422 naming the engine and the fix, before any prediction or download', async () => {
    const before = await t.service.ctx.database.db.$count(predictions);
    const form = new FormData();
    form.append('input.audio', new Blob([Buffer.alloc(2048)], { type: 'audio/wav' }), 'a.wav');
    form.append('input.multilingual', 'true');
    for (const body of [
      JSON.stringify({ input: { audio: link, multilingual: true } }),
      JSON.stringify({ input: { audio: link, multilingual: true, language: 'en' } }),
      form,
    ]) {
      const response = await create(body);
      const problem = (await response.json()) as { detail: string; status: number };
      expect(response.status, problem.detail).toBe(422);
      expect(problem.detail).toMatch(
        /^multilingual true is not available: the configured recognition engine pocketsphinx recognises only en \(English\) and cannot detect several languages in one recording\. Send multilingual false or null/,
      );
    }
    expect(await t.service.ctx.database.db.$count(predictions)).toBe(before);
    expect(linkHits).toBe(0);
  });

  it.each([[false], [null]])('should accept multilingual %s', async (multilingual) => {
    const response = await create(JSON.stringify({ input: { audio: link, multilingual } }));
    expect(response.status).toBe(201);
    expect(((await response.json()) as { input: { multilingual: unknown } }).input.multilingual).toBe(multilingual);
  });
});
