import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@transcribe/core';
import { LIBRIVOX_READER, writeReaderThenJfk } from '../test-support/join-clips.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { useApiFixture } from '../test-support/use-api-fixture.ts';

interface Json2 {
  segments: { speaker: string | null; text: string }[];
  speakers: { label: string }[];
  speaker_voices?: { label: string; voice_id: string; similarity: number }[];
}

/**
 * Known voices through the API (docs/speakers.md): a reader enrolled from one LibriVox clip is named in a
 * conversation of another of her clips and JFK, who stays SPEAKER_n (he was never enrolled).
 */
describe('known_voices through the API', () => {
  const api = useApiFixture('pglite');
  let conversation: FileServer;
  let work: string;
  let voiceId: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'known-voices-'));
    await writeReaderThenJfk(join(work, 'talk.wav'));
    conversation = await serveFiles(work);
    const enrolled = await fetch(`${api.t.url}/v1/voices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Reader', samples: [`${api.files.url}/${LIBRIVOX_READER}-0870.wav`] }), // a link sample
    });
    expect(enrolled.status).toBe(201);
    voiceId = ((await enrolled.json()) as { id: string }).id;
  });

  afterAll(async () => {
    await conversation?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('should name the enrolled speaker, leave the other SPEAKER_n, and list the match in json2', async () => {
    const done = await api.run({ audio: `${conversation.url}/talk.wav`, speakers: 2, output_format: 'json2', known_voices: ['Reader'] });
    expect(done.status).toBe('succeeded');
    const output = done.output as Json2;
    const labels = output.speakers.map((s) => s.label);
    expect(labels).toContain('Reader');
    expect(labels.filter((label) => /^SPEAKER_\d+$/.test(label))).toHaveLength(1);
    expect(output.segments[0]!.speaker).toBe('Reader'); // she speaks first
    expect(output.speaker_voices).toEqual([{ label: 'Reader', voice_id: voiceId, similarity: expect.any(Number) }]);
    expect(output.speaker_voices![0]!.similarity).toBeGreaterThanOrEqual(0.55);
    expect(String(done.logs)).toMatch(/voice embeddings: built-in features/);
    expect(String(done.logs)).toMatch(/1 known voice recognised \(similarity ≥ 0\.55\)/);
  });

  it('should name nobody under a per-request threshold no match reaches, in text as in json', async () => {
    const done = await api.run({
      audio: `${conversation.url}/talk.wav`,
      speakers: 2,
      output_format: 'text',
      known_voices: true,
      known_voices_threshold: 0.999,
    });
    expect(done.status).toBe('succeeded');
    expect(String(done.output)).toMatch(/SPEAKER_1: /);
    expect(String(done.output)).not.toMatch(/Reader/);
  });

  it("should refuse unknown voices and another account's voices with 422 before any download", async () => {
    const other = await createApiKey(api.t.service.ctx.database.db, 'other');
    for (const [input, key] of [
      [{ known_voices: ['Nobody'] }, api.t.key],
      [{ known_voices: [voiceId] }, other.secret],
      [{ known_voices: 'Reader' }, api.t.key],
      [{ known_voices: true, known_voices_threshold: 2 }, api.t.key],
    ] as const) {
      const response = await api.create({ audio: 'https://unreachable.invalid/a.wav', ...input }, key);
      expect(response.status).toBe(422);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/known_voices/);
    }
  });
});
