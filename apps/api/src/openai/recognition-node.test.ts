import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeForWer, wordErrorRate } from '@transcribe/core';
import { createKeyFor } from '../test-support/fake-engine-service.ts';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/**
 * This service as another instance's remote engine (docs/deployment.md "CPU recognition
 * nodes"): a recognition node (its own process, PocketSphinx, PGlite) and a front instance whose
 * ASR_BASE_URL is the node's `/v1`. The front downloads, decodes, runs VAD and cuts chunks; the node
 * recognises each chunk through POST /v1/audio/transcriptions.
 */
describe('one instance recognising for another through the OpenAI-compatible API', () => {
  let nodeDir: string;
  let node: SpawnedService;
  let nodeKey: string;
  let front: TestService;
  let files: FileServer;

  beforeAll(async () => {
    nodeDir = await mkdtemp(join(tmpdir(), 'recognition-node-'));
    const env = { DATA_DIR: nodeDir, RECOGNITION_ENGINE: 'pocketsphinx' };
    node = await spawnService(env);
    nodeKey = await createKeyFor(env, 'front');
    front = await startTestService('pglite', {
      RECOGNITION_ENGINE: 'openai-compatible',
      ASR_BASE_URL: `${node.url}/v1`,
      ASR_API_KEY: nodeKey,
      ASR_MODEL: 'whisper-1',
      ASR_MAX_RETRIES: '0',
    });
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
    await front?.stop();
    await node?.kill();
    if (nodeDir) await rm(nodeDir, { recursive: true, force: true });
  });

  it('should transcribe on the front with the words recognised by the node, each chunk a prediction of the node', async () => {
    const response = await fetch(`${front.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${front.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: `${files.url}/jfk.wav` } }),
    });
    expect(response.status).toBe(201);
    const done = await pollPrediction(front.replicateBase, front.key, ((await response.json()) as { id: string }).id);
    expect(done.status, node.output()).toBe('succeeded');
    const output = done.output as { segments: { text: string; start: number; end: number; words?: unknown[] }[]; language: string };
    const text = output.segments.map((segment) => segment.text).join(' ');
    const reference = await readFile(join(AUDIO_DIR, 'jfk.txt'), 'utf8');
    expect(wordErrorRate(normalizeForWer(reference), normalizeForWer(text)).wer).toBeLessThan(0.3);
    expect(output.language).toBe('en'); // the node's `english` mapped back to the spec 2.5 code
    for (const segment of output.segments) expect(segment.end).toBeLessThanOrEqual(11.1);

    const list = await fetch(`${node.url}/v1/replicate/v1/predictions`, { headers: { authorization: `Bearer ${nodeKey}` } });
    const onNode = ((await list.json()) as { results: { status: string; source?: unknown }[] }).results;
    expect(onNode.length).toBeGreaterThan(0);
    expect(onNode.every((prediction) => prediction.status === 'succeeded')).toBe(true);
  });
});
