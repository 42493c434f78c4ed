import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diarizationErrorRate, parseRttm } from '@transcribe/core';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

interface Json2 {
  segments: { start: number; end: number; speaker: string | null; text: string }[];
  speakers: { label: string; duration: number }[];
}

/** Speaker labels through the API: diarization (issue 5) and the stereo channel split. */
describe('speaker labels through the API', () => {
  let t: TestService;
  let files: FileServer;

  const run = async (input: Record<string, unknown>) => {
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { output_format: 'json2', ...input } }),
    });
    return pollPrediction(t.replicateBase, t.key, ((await response.json()) as { id: string }).id);
  };

  beforeAll(async () => {
    t = await startTestService('pglite');
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  it('should label two speakers numbered by first appearance when speakers is 2, close to the reference', async () => {
    const done = await run({ audio: `${files.url}/multispeaker/pyannote_sample.wav`, speakers: 2 });
    expect(done.status).toBe('succeeded');
    const output = done.output as Json2;
    expect(output.speakers.map((s) => s.label)).toEqual(['SPEAKER_1', 'SPEAKER_2']);
    expect(output.segments[0]?.speaker).toBe('SPEAKER_1');
    const reference = parseRttm(await readFile(join(AUDIO_DIR, 'multispeaker/pyannote_sample.rttm'), 'utf8'));
    const turns = output.segments.map((s) => ({ start: s.start, end: s.end, speaker: s.speaker ?? '' }));
    // Segments cover only recognised words, so this DER is above the diarizer's own (docs/diarization.md).
    expect(diarizationErrorRate(reference, turns, { collar: 0.25 }).der).toBeLessThan(0.45);
    expect(String(done.logs)).toMatch(/diarized: 2 speakers/);
  });

  it('should split a stereo recording with one speaker per channel', async () => {
    const done = await run({ audio: `${files.url}/stereo_two_speakers.wav` });
    expect(done.status).toBe('succeeded');
    const output = done.output as Json2;
    expect(String(done.logs)).toMatch(/different speaker on each channel/);
    expect(new Set(output.segments.map((s) => s.speaker))).toEqual(new Set(['SPEAKER_1', 'SPEAKER_2']));
  });

  it('should label everything as one speaker when speakers is 1', async () => {
    const done = await run({ audio: `${files.url}/multispeaker/pyannote_sample.wav`, speakers: 1 });
    const output = done.output as Json2;
    expect(output.speakers.map((s) => s.label)).toEqual(['SPEAKER_1']);
  });
});
