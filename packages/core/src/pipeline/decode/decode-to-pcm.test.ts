import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { decodeToPcm } from './decode-to-pcm.ts';
import { readWavHeader } from './read-wav-samples.ts';
import { failure } from './test-support/failure-of.ts';
import { makeFlacBomb } from './test-support/make-flac-bomb.ts';
import { recordFfmpegOutputs } from './test-support/record-ffmpeg-outputs.ts';
import { probeMedia } from './probe-media.ts';

const AUDIO = '/work/shared/audio';
const run = promisify(execFile);
let dir: string;
let count = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'decode-pcm-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function out(): string {
  count += 1;
  return join(dir, `decoded-${count}.wav`);
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('decodeToPcm', () => {
  describe('when the input has audio', () => {
    it('should decode jfk.wav to about 11.0 s', async () => {
      const path = out();
      const result = await decodeToPcm(`${AUDIO}/jfk.wav`, path);
      expect(result.durationSeconds).toBeCloseTo(11.0, 1);
      expect(result.bytes).toBe((await stat(path)).size);
    });

    it('should turn a 48 kHz Ogg into a 16 kHz mono 16-bit WAV', async () => {
      const path = out();
      const result = await decodeToPcm(`${AUDIO}/fleurs/original-ogg/fleurs-en-000.ogg`, path);
      const header = await readWavHeader(path);
      expect(header).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16 });
      expect(result.durationSeconds).toBeCloseTo(header.dataBytes / 32000, 6);
      expect(result.durationSeconds).toBeGreaterThan(1);
    });

    it('should mix a stereo music file down to mono', async () => {
      const path = out();
      await decodeToPcm(`${AUDIO}/music/brahms_hungarian_dance_5_us_army_strings.ogg`, path);
      expect((await readWavHeader(path)).channels).toBe(1);
    });

    it('should decode a FLAC file to the same length ffprobe reports', async () => {
      const input = `${AUDIO}/librispeech-test-clean/1089-134686-0000.flac`;
      const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', input]);
      const result = await decodeToPcm(input, out());
      expect(result.durationSeconds).toBeCloseTo(Number(stdout), 1);
    });

    it('should take the audio track of a video', async () => {
      const video = join(dir, 'clip.mp4');
      await run('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc=duration=2:size=160x120:rate=10',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:duration=2',
        '-c:v',
        'mpeg4',
        '-c:a',
        'aac',
        '-shortest',
        video,
      ]);
      const result = await decodeToPcm(video, out());
      expect(result.durationSeconds).toBeGreaterThan(1.9);
      expect(result.durationSeconds).toBeLessThan(2.2);
    });
  });

  describe('when the input cannot be decoded', () => {
    it('should throw media_unreadable for a text file, with a plain message and details only in cause', async () => {
      const input = join(dir, 'notes.txt');
      await writeFile(input, 'definitely not audio\n'.repeat(50));
      const path = out();
      const error = await failure(decodeToPcm(input, path));
      expect(isAppError(error, 'media_unreadable')).toBe(true);
      expect(error.message).not.toContain(dir);
      expect(error.cause).toBeInstanceOf(Error);
      expect(await exists(path)).toBe(false);
    });

    it('should keep ffmpeg’s stderr in cause for a damaged file', async () => {
      const input = join(dir, 'garbage.mp3');
      await writeFile(input, Buffer.concat([Buffer.from('ID3'), Buffer.alloc(2000, 0x5a)]));
      const error = await failure(decodeToPcm(input, out()));
      expect(isAppError(error, 'media_unreadable')).toBe(true);
      expect(error.message).toBe('The recording could not be decoded; the file may be damaged or in an unsupported format.');
      expect((error.cause as Error).message.length).toBeGreaterThan(0);
    });

    it('should throw media_no_audio for a video without sound', async () => {
      const video = join(dir, 'silent.mp4');
      await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10', '-c:v', 'mpeg4', video]);
      const path = out();
      const error = await failure(decodeToPcm(video, path));
      expect(isAppError(error, 'media_no_audio')).toBe(true);
      expect(await exists(path)).toBe(false);
    });

    it('should throw media_no_audio for audio that decodes to zero samples', async () => {
      const input = join(dir, 'empty.wav');
      await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-frames:a', '0', input]);
      const error = await failure(decodeToPcm(input, out()));
      expect(isAppError(error, 'media_no_audio')).toBe(true);
    });

    it('should kill ffmpeg and reject with the reason when aborted', async () => {
      const controller = new AbortController();
      const reason = new Error('stop');
      controller.abort(reason);
      const error = await failure(decodeToPcm(`${AUDIO}/jfk.wav`, out(), { signal: controller.signal }));
      expect(error).toBe(reason);
    });

    it('should record the running ffmpeg in the output folder, for a start after a crash to kill, and forget it once killed', async () => {
      const folder = await mkdtemp(join(dir, 'work-'));
      const controller = new AbortController();
      const decoding = decodeToPcm(`${AUDIO}/long_hifitts6097_concat_16k.wav`, join(folder, 'audio.wav'), { signal: controller.signal });
      let settled = false;
      void decoding.catch(() => {}).finally(() => (settled = true));
      let records: string[] = [];
      while (records.length === 0 && !settled) records = await readdir(join(folder, '.children')).catch(() => []);
      expect(records, 'ffmpeg ended before its record was seen').toHaveLength(1);
      const record = JSON.parse(await readFile(join(folder, '.children', records[0]!), 'utf8')) as { pid: number; program: string };
      expect(record.program).toBe('ffmpeg');
      controller.abort(new Error('stop'));
      await expect(decoding).rejects.toThrow('stop');
      for (let i = 0; i < 100 && (await exists(`/proc/${record.pid}/cmdline`)); i++) await new Promise((done) => setTimeout(done, 50));
      expect(await readdir(folder)).toEqual([]);
    });

    it('should kill ffmpeg on timeout and say it took too long', async () => {
      const error = await failure(decodeToPcm(`${AUDIO}/long_hifitts6097_concat_16k.wav`, out(), { timeoutMs: 1 }));
      expect(isAppError(error, 'media_unreadable')).toBe(true);
      expect(error.message).toContain('too long');
    });
  });

  describe('when the stream runs past the length its header states (decompression bomb)', () => {
    it('should stop at twice the stated length plus a minute, through a domain filter too, and refuse it', async () => {
      const bomb = join(dir, 'bomb.flac');
      await makeFlacBomb(bomb, { hours: 25, statedSamples: 10 });
      const { durationSeconds } = await probeMedia(bomb);
      const recorder = await recordFfmpegOutputs(dir);
      const saved = process.env.FFMPEG_PATH;
      process.env.FFMPEG_PATH = recorder.script;
      const outputs = [out(), out()];
      try {
        for (const [output, audioFilter] of [
          [outputs[0]!, undefined],
          [outputs[1]!, 'highpass=f=300,lowpass=f=3400'],
        ] as const) {
          const error = await failure(
            decodeToPcm(bomb, output, { statedSeconds: durationSeconds, ...(audioFilter ? { audioFilter } : {}) }),
          );
          expect(isAppError(error, 'media_unreadable'), String(error)).toBe(true);
          expect(error.message).toMatch(/^The recording is longer than its header says: it states 10 s/);
          expect(await exists(output)).toBe(false);
        }
      } finally {
        if (saved === undefined) delete process.env.FFMPEG_PATH;
        else process.env.FFMPEG_PATH = saved;
      }
      const written = await recorder.outputs();
      expect(written.map((w) => w.path)).toEqual(outputs);
      for (const { bytes } of written) expect(bytes).toBeLessThanOrEqual(81 * 32_000 + 4096); // uncapped: 2.88 GB
    });

    it('should decode in full a chained Ogg whose stated length is only that of its last part', async () => {
      const part = join(dir, 'part.ogg');
      await run('ffmpeg', ['-v', 'error', '-y', '-i', `${AUDIO}/jfk.wav`, '-c:a', 'libvorbis', '-q:a', '0', part]);
      const chained = join(dir, 'chained.ogg');
      const bytes = await readFile(part);
      await writeFile(chained, Buffer.concat(Array.from({ length: 20 }, () => bytes)));
      const probe = await probeMedia(chained);
      expect(probe.durationSeconds).toBeCloseTo(11, 0);
      const decoded = await decodeToPcm(chained, out(), { statedSeconds: probe.durationSeconds });
      expect(decoded.durationSeconds).toBeGreaterThan(200);
    });

    it('should decode an honest recording in full when given its stated length', async () => {
      const input = `${AUDIO}/jfk.wav`;
      const decoded = await decodeToPcm(input, out(), { statedSeconds: (await probeMedia(input)).durationSeconds });
      expect(decoded.durationSeconds).toBeCloseTo(11, 0);
    });
  });
});
