import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeForWer, wordErrorRate } from '@transcribe/core';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { useApiFixture } from '../test-support/use-api-fixture.ts';

/**
 * WER bounds of the PocketSphinx engine per clip, measured on this machine (docs/recognition.md)
 * with a small margin, so a regression in decoding, VAD gating or timing fails the test.
 */
const CLIPS = [
  { file: 'jfk.wav', maxWer: 0.28 }, // measured 0.227
  { file: 'librispeech-test-clean/1089-134686-0000.wav', maxWer: 0.41 }, // 0.357
  { file: 'librispeech-test-clean/1089-134686-0001.wav', maxWer: 0.43 }, // 0.375
  { file: 'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0870.wav', maxWer: 0.42 }, // 0.364
  { file: 'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0880.wav', maxWer: 0.43 }, // 0.375
  { file: 'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0890.wav', maxWer: 0.34 }, // 0.286
];

function transcriptText(output: { segments: { text: string }[] }): string {
  return output.segments.map((segment) => segment.text).join(' ');
}

describe.each(['pglite', 'postgres'] as const)('transcription through the API on %s', (kind) => {
  const api = useApiFixture(kind);
  const transcribe = async (input: Record<string, unknown>) => {
    const response = await api.create(input);
    expect(response.status).toBe(201);
    const created = (await response.json()) as { id: string; status: string };
    expect(created.status).toBe('processing');
    return pollPrediction(api.t.replicateBase, api.t.key, created.id);
  };

  it('should transcribe a linked recording into the json form with real times', async () => {
    const done = await transcribe({ audio: `${api.files.url}/jfk.wav` });
    expect(done.status).toBe('succeeded');
    const output = done.output as {
      source: { length: number; format: string };
      segments: { start: number; end: number; text: string }[];
      vad: { start: number; end: number }[];
      language: string;
    };
    expect(output.source.length).toBeCloseTo(11, 0);
    expect(output.source.format).toBe('wav');
    expect(output.language).toBe('en');
    expect(output.vad.length).toBeGreaterThan(1);
    expect(output.segments.length).toBeGreaterThan(0);
    for (const segment of output.segments) {
      expect(segment.end).toBeGreaterThanOrEqual(segment.start);
      expect(segment.end).toBeLessThanOrEqual(11.01);
    }
    const reference = await readFile(join(AUDIO_DIR, 'jfk.txt'), 'utf8');
    expect(wordErrorRate(normalizeForWer(reference), normalizeForWer(transcriptText(output))).wer).toBeLessThan(0.28);
    expect(JSON.stringify(done)).not.toContain(api.t.dataDir);
  });

  it('should transcribe a data: URI as the Python client sends a local file', async () => {
    const bytes = await readFile(join(AUDIO_DIR, 'librispeech-test-clean/1089-134686-0001.wav'));
    const done = await transcribe({ audio: `data:audio/x-wav;base64,${bytes.toString('base64')}`, output_format: 'text' });
    expect(done.status).toBe('succeeded');
    expect(typeof done.output).toBe('string');
    expect(String(done.output)).toMatch(/\[\d\d:\d\d:\d\d/);
    expect(String((done.input as { audio: string }).audio).length).toBeLessThan(200);
  });

  it('should end with a plain-words error for a file that is not media', async () => {
    const done = await transcribe({ audio: `${api.files.url}/jfk.txt` });
    expect(done.status).toBe('failed');
    expect(String(done.error)).toMatch(/not a recording|cannot read|can't read/i);
  });

  it('should end with a clear error for an unreachable or missing link', async () => {
    const missing = await transcribe({ audio: `${api.files.url}/no-such-file.wav` });
    expect(missing.status).toBe('failed');
    expect(String(missing.error)).toMatch(/404/);
    const unreachable = await transcribe({ audio: 'http://127.0.0.1:9/never.wav' });
    expect(unreachable.status).toBe('failed');
    expect(String(unreachable.error)).toMatch(/reach|connect/i);
  });

  it('should refuse a missing or wrong key with 401 and a JSON detail', async () => {
    const missing = await fetch(`${api.t.replicateBase}/v1/predictions/abc`);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/Authorization: Bearer/);
    const wrong = await api.create({ audio: `${api.files.url}/jfk.wav` }, 'tsk_wrong');
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { detail: string }).detail).toMatch(/not valid/);
  });

  it("should answer 404 for another key's prediction", async () => {
    const response = await api.create({ audio: `${api.files.url}/jfk.wav` });
    const { id } = (await response.json()) as { id: string };
    const { createApiKey } = await import('@transcribe/core');
    const other = await createApiKey(api.t.service.ctx.database.db, 'other');
    const peek = await fetch(`${api.t.replicateBase}/v1/predictions/${id}`, { headers: { authorization: `Token ${other.secret}` } });
    expect(peek.status).toBe(404);
    expect(((await peek.json()) as { detail: string }).detail).toMatch(/No prediction/);
    await pollPrediction(api.t.replicateBase, api.t.key, id);
  });

  it('should refuse a language the engine cannot recognise with 422 before anything is created', async () => {
    const response = await api.create({ audio: `${api.files.url}/jfk.wav`, language: 'de' });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/language/);
  });
});

describe('recognition quality through the API', () => {
  const api = useApiFixture('pglite');

  it.each(CLIPS)('should keep the word error rate of $file under $maxWer', async ({ file, maxWer }) => {
    const done = await api.run({ audio: `${api.files.url}/${file}` });
    expect(done.status).toBe('succeeded');
    const reference = await readFile(join(AUDIO_DIR, file.replace(/\.wav$/, '.txt')), 'utf8');
    const { wer } = wordErrorRate(normalizeForWer(reference), normalizeForWer(transcriptText(done.output as never)));
    console.log(`WER ${file}: ${wer.toFixed(3)}`);
    expect(wer).toBeLessThan(maxWer);
  });

  it.each([
    'nonspeech/generated_white_noise_10s.wav',
    'nonspeech/pisets_no_speech.wav',
    'music/brahms_hungarian_dance_5_us_army_strings_16k.wav',
  ])('should give an empty transcript, not invented words, for %s', async (file) => {
    const done = await api.run({ audio: `${api.files.url}/${file}` });
    expect(done.status).toBe('succeeded');
    const output = done.output as { segments: unknown[]; vad: unknown[]; language: string | null };
    expect(output.segments).toEqual([]);
    expect(output.vad).toEqual([]);
    expect(output.language).toBeNull();
  });
});
