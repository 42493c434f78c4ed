import { mkdtempSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRoundRobinMeeting, diarizationErrorRate, makeDiarizationReleaseFiles, parseRttm } from '@transcribe/core/testing';
import { serveFiles } from '../test-support/serve-files.ts';
import { runScriptToEnd } from '../test-support/spawn-service.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { useApiFixture } from '../test-support/use-api-fixture.ts';

interface Json2 {
  segments: { start: number; end: number; speaker: string | null; text: string }[];
  speakers: { label: string; duration: number }[];
}

/** Speaker labels through the API: diarization and the stereo channel split. */
describe('speaker labels through the API', () => {
  const api = useApiFixture('pglite');
  const run = (input: Record<string, unknown>) => api.run({ output_format: 'json2', ...input });

  it('should label two speakers numbered by first appearance when speakers is 2, close to the reference', async () => {
    const done = await run({ audio: `${api.files.url}/multispeaker/pyannote_sample.wav`, speakers: 2 });
    expect(done.status).toBe('succeeded');
    const output = done.output as Json2;
    expect(output.speakers.map((s) => s.label)).toEqual(['SPEAKER_1', 'SPEAKER_2']);
    expect(output.segments[0]?.speaker).toBe('SPEAKER_1');
    const reference = parseRttm(await readFile(join(AUDIO_DIR, 'multispeaker/pyannote_sample.rttm'), 'utf8'));
    const turns = output.segments.map((s) => ({ start: s.start, end: s.end, speaker: s.speaker ?? '' }));
    // Segments cover only recognised words, so this DER is above the diarizer's own (docs/diarization.md).
    expect(diarizationErrorRate(reference, turns, { collar: 0.25 }).der).toBeLessThan(0.45);
    expect(String(done.logs)).toMatch(/diarized: 2 speakers/);
    expect(String(done.logs)).toMatch(/diarizer: built-in/);
  });

  it('should split a stereo recording with one speaker per channel', async () => {
    const done = await run({ audio: `${api.files.url}/stereo_two_speakers.wav` });
    expect(done.status).toBe('succeeded');
    const output = done.output as Json2;
    expect(String(done.logs)).toMatch(/different speaker on each channel/);
    expect(new Set(output.segments.map((s) => s.speaker))).toEqual(new Set(['SPEAKER_1', 'SPEAKER_2']));
  });

  it('should accept speakers above what the diarizer separates (spec 8: integer >= 1), say so in the logs and look for fewer', async () => {
    const done = await run({ audio: `${api.files.url}/jfk.wav`, speakers: 40 });
    expect(done.status).toBe('succeeded');
    expect(String(done.logs)).toMatch(
      /speakers is 40, more than the diarizer can separate in \d+\.\d s of speech \(at most 32, and one per 2 s of speech\): looking for at most (\d+)/,
    );
    const most = Number(/looking for at most (\d+)/.exec(String(done.logs))![1]);
    expect(most).toBeLessThan(40);
    expect((done.output as Json2).speakers.length).toBeLessThanOrEqual(most);
  });

  it('should count the four speakers of a meeting when speakers is not given', async () => {
    // Four readers of the shared audio taking 3 s turns (docs/diarization.md, "Choosing among two or more
    // speakers"); before the BIC choice the estimate stopped at 2.
    const workDir = await mkdtemp(join(tmpdir(), 'meeting-through-api-'));
    const host = await serveFiles(workDir);
    try {
      const voices = ['jfk', 'ls', 'lv', 'hifi'];
      const meeting = await buildRoundRobinMeeting({ audioDir: AUDIO_DIR, workDir, voices, name: 'meeting' });
      const done = await run({ audio: `${host.url}/${basename(meeting.wavPath)}` });
      expect(done.status).toBe('succeeded');
      expect(String(done.logs)).toMatch(/diarized: 4 speakers/);
      const output = done.output as Json2;
      expect(output.speakers.map((s) => s.label)).toEqual(['SPEAKER_1', 'SPEAKER_2', 'SPEAKER_3', 'SPEAKER_4']);
      // The label most of each reader's segments carry is a different one for every reader.
      const mostCommonLabel = (voice: string) => {
        const counts = new Map<string | null, number>();
        for (const segment of output.segments) {
          const inTurn = meeting.turns.some((t) => t.speaker === voice && segment.start >= t.start - 0.3 && segment.end <= t.end + 0.3);
          if (inTurn) counts.set(segment.speaker, (counts.get(segment.speaker) ?? 0) + 1);
        }
        return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
      };
      expect(new Set(voices.map(mostCommonLabel)).size).toBe(4);
    } finally {
      await host.close();
      await rm(workDir, { recursive: true, force: true });
    }
  });

  it('should label everything as one speaker when speakers is 1', async () => {
    const done = await run({ audio: `${api.files.url}/multispeaker/pyannote_sample.wav`, speakers: 1 });
    const output = done.output as Json2;
    expect(output.speakers.map((s) => s.label)).toEqual(['SPEAKER_1']);
  });
});

/**
 * The sherpa-onnx diarizer inside a whole prediction, installed as an operator installs it: `npm run
 * models -- install` (a process) with the recommended pair's release files made of the fixture graphs
 * (@transcribe/core/testing makeDiarizationReleaseFiles; real formats, no speaker models, so the
 * self-test refuses them and `--force` activates them). Each prediction looks for the pair, so the
 * running service picks it up without a restart. PocketSphinx recognises. The count asked for and the
 * wiring are checked, not who is who.
 */
describe('speaker labels through the API with the sherpa-onnx diarizer', () => {
  const modelsDir = mkdtempSync(join(tmpdir(), 'diarization-api-models-'));
  const api = useApiFixture('pglite', { MODELS_DIR: modelsDir, RECOGNITION_ENGINE: 'pocketsphinx' });
  afterAll(async () => {
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('should run the built-in diarizer and say why until the pair is installed, then sherpa-onnx with the installed pair', async () => {
    const before = await api.run({ output_format: 'json2', audio: `${api.files.url}/jfk.wav`, speakers: 2 });
    expect(before.status).toBe('succeeded');
    expect(String(before.logs)).toContain(
      'diarizer: built-in (no neural diarization model installed; install with npm run models -- download diarization)',
    );

    const release = await makeDiarizationReleaseFiles(join(modelsDir, '..', `${basename(modelsDir)}-release`));
    const install = await runScriptToEnd(
      'apps/api/src/cli/models.ts',
      ['install', release.segmentationArchive, release.embeddingFile, '--force', '--models-dir', modelsDir],
      {},
    );
    expect(install.stdout).toContain('ACTIVATED WITH --force');
    expect(install.code).toBe(0);

    const done = await api.run({ output_format: 'json2', audio: `${api.files.url}/multispeaker/pyannote_sample.wav`, speakers: 2 });
    expect(done.status).toBe('succeeded');
    const logs = String(done.logs);
    expect(logs).toContain(
      'diarizer: sherpa-onnx (sherpa-onnx-pyannote-segmentation-3-0, wespeaker_en_voxceleb_resnet34_LM): a neural diarization pair is installed',
    );
    expect(logs).toMatch(/diarized: 2 speakers/);
    const output = done.output as Json2;
    expect(output.speakers.map((s) => s.label)).toEqual(['SPEAKER_1', 'SPEAKER_2']);
    expect(output.segments[0]?.speaker).toBe('SPEAKER_1');
    expect(output.segments.every((s) => s.speaker === 'SPEAKER_1' || s.speaker === 'SPEAKER_2')).toBe(true);
    await rm(join(modelsDir, '..', `${basename(modelsDir)}-release`), { recursive: true, force: true });
  });
});
