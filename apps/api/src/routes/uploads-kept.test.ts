import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/**
 * An uploaded recording is kept only as long as its prediction runs: nothing reuses an upload (the
 * cache of spec 2.6 is for links), so it is deleted when the prediction ends, whatever the end.
 * A `/v1/files` object keeps its own lifetime (docs/reliability.md, "Data we keep").
 * The deletion follows the terminal write (run-prediction.ts releases the upload in its `finally`,
 * after the end is stored, because a run whose final write fails is retried and still needs the
 * file), so a poller that has just seen the end may still find the file for a moment: the checks
 * wait up to 5 s for it to go.
 */
describe('uploads are deleted when their prediction ends', () => {
  let t: TestService;
  let clip: Buffer;
  const auth = () => ({ authorization: `Bearer ${t.key}` });
  const uploads = async () =>
    (await readdir(join(t.dataDir, 'uploads')).catch(() => [] as string[])).filter((name) => !name.endsWith('.partial'));
  /** Waits (up to 5 s) until no upload but those `keep` accepts is left, and returns what is left. */
  const uploadsLeft = (keep: (name: string) => boolean = () => true) =>
    vi.waitFor(
      async () => {
        const left = (await uploads()).filter(keep);
        expect(left).toEqual([]);
        return left;
      },
      { timeout: 5_000, interval: 50 },
    );

  beforeAll(async () => {
    t = await startTestService('pglite', { RECOGNITION_ENGINE: 'fake', ALLOW_FAKE_ENGINE: '1' });
    clip = await readFile(join(AUDIO_DIR, 'jfk.wav'));
  });

  afterAll(async () => {
    await t?.stop();
  });

  const createWithFile = async (bytes: Buffer) => {
    const form = new FormData();
    form.append('input.audio', new Blob([bytes], { type: 'audio/wav' }), 'talk.wav');
    const answer = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: auth(),
      body: form,
    });
    expect(answer.status).toBe(201);
    return ((await answer.json()) as { id: string }).id;
  };

  it('should delete the upload of a succeeded prediction', async () => {
    const id = await createWithFile(clip);
    expect((await pollPrediction(t.replicateBase, t.key, id)).status).toBe('succeeded');
    expect(await uploadsLeft()).toEqual([]);
  });

  it('should delete the upload of a failed prediction (not a recording)', async () => {
    const id = await createWithFile(Buffer.from('this is not audio at all '.repeat(100)));
    const done = await pollPrediction(t.replicateBase, t.key, id);
    expect(done.status).toBe('failed');
    expect(await uploadsLeft()).toEqual([]);
  });

  it('should delete the upload of a data: URI once its prediction ends', async () => {
    const answer = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: `data:audio/wav;base64,${clip.toString('base64')}` } }),
    });
    const { id } = (await answer.json()) as { id: string };
    expect((await pollPrediction(t.replicateBase, t.key, id)).status).toBe('succeeded');
    expect(await uploadsLeft()).toEqual([]);
  });

  it('should keep a /v1/files object after a prediction that used it ended, and delete only the prediction’s copy', async () => {
    const form = new FormData();
    form.append('content', new Blob([clip], { type: 'audio/wav' }), 'jfk.wav');
    const file = (await (await fetch(`${t.replicateBase}/v1/files`, { method: 'POST', headers: auth(), body: form })).json()) as {
      urls: { get: string };
    };
    const answer = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: file.urls.get } }),
    });
    const { id } = (await answer.json()) as { id: string };
    expect((await pollPrediction(t.replicateBase, t.key, id)).status).toBe('succeeded');
    expect(await uploadsLeft((name) => name.startsWith('file-'))).toEqual([]);
    const content = await fetch(`${file.urls.get}/download`, { headers: auth() });
    expect(content.status).toBe(200);
    expect(Buffer.from(await content.arrayBuffer()).equals(clip)).toBe(true);
  });
});
