import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { decodeToPcm } from './decode-to-pcm.ts';
import { readWavLayout } from './read-wav-layout.ts';
import { failure } from './test-support/failure-of.ts';
import { makeFlacBomb } from './test-support/make-flac-bomb.ts';
import { makeLowRateSilence } from './test-support/make-low-rate-silence.ts';
import { recordFfmpegOutputs } from './test-support/record-ffmpeg-outputs.ts';
import { probeMedia } from './probe-media.ts';
import { MAX_WORK_BYTES } from './recording-length-limit.ts';

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
      const header = await readWavLayout(path);
      expect(header).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16 });
      expect(result.durationSeconds).toBeCloseTo(header.dataBytes / 32000, 6);
      expect(result.durationSeconds).toBeGreaterThan(1);
    });

    it('should mix a stereo music file down to mono', async () => {
      const path = out();
      await decodeToPcm(`${AUDIO}/music/brahms_hungarian_dance_5_us_army_strings.ogg`, path);
      expect((await readWavLayout(path)).channels).toBe(1);
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
      const written = await recorder.outputs(); // the PCM each decode sent down its pipe to the file
      expect(written.map((w) => w.path)).toEqual(['pipe:1', 'pipe:1']);
      for (const { bytes } of written) expect(bytes).toBeLessThanOrEqual(81 * 32_000); // uncapped: 2.88 GB
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

  describe('at the per-prediction disk budget', () => {
    it('should stop writing at the output’s share of what is left and refuse with media_too_large, leaving no output', async () => {
      const folder = await mkdtemp(join(dir, 'budget-'));
      // A sparse file: its size counts against the budget (measureFolderBytes) but takes no disk.
      const used = join(folder, 'earlier.bin');
      await writeFile(used, '');
      await truncate(used, MAX_WORK_BYTES - 200_000); // leaves 200 kB: jfk.wav decodes to 352 kB
      const path = join(folder, 'audio.wav');
      try {
        const error = await failure(decodeToPcm(`${AUDIO}/jfk.wav`, path, { cutSilences: true }));
        expect(isAppError(error, 'media_too_large'), String(error)).toBe(true);
        expect(error.message).toBe('Decoding the recording needs more than the 6144 MiB of working space a prediction may use.');
        expect(await exists(path)).toBe(false);
      } finally {
        await rm(folder, { recursive: true, force: true }); // the other tests' outputs share `dir`, and so the budget
      }
    });
  });

  describe('with cutSilences (long silences left out)', () => {
    /** The int16 samples of a mono 16-bit WAV file. */
    async function samples(path: string): Promise<Int16Array> {
      const header = await readWavLayout(path);
      const bytes = await readFile(path);
      return new Int16Array(
        bytes.buffer.slice(bytes.byteOffset + header.dataOffset, bytes.byteOffset + header.dataOffset + header.dataBytes),
      );
    }

    it('should write the recording less the middle of a 40 s digital silence, every other sample as without', async () => {
      const input = join(dir, 'silence-then-jfk.wav');
      await run('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'anullsrc=r=16000:cl=mono:d=40',
        '-i',
        `${AUDIO}/jfk.wav`,
        '-filter_complex',
        '[0:a][1:a]concat=n=2:v=0:a=1',
        input,
      ]);
      const whole = out();
      const cut = out();
      const plain = await decodeToPcm(input, whole);
      const decoded = await decodeToPcm(input, cut, { cutSilences: true });
      expect(plain).toMatchObject({ durationSeconds: 51, sourceSeconds: 51, cuts: [], silent: false });
      expect(decoded).toMatchObject({ sourceSeconds: 51, silent: false });
      // The silence runs on into the first quiet moment of jfk.wav: a little more than 40 s is silence.
      expect(decoded.cuts).toHaveLength(1);
      const [{ at, dropped }] = decoded.cuts as [{ at: number; dropped: number }];
      expect(at).toBe(3);
      expect(dropped).toBeGreaterThanOrEqual(34);
      expect(dropped).toBeLessThan(35);
      expect(decoded.durationSeconds).toBeCloseTo(51 - dropped, 6);
      expect(decoded.bytes).toBe((await stat(cut)).size);
      const [all, kept] = [await samples(whole), await samples(cut)];
      const expected = new Int16Array([...all.subarray(0, at * 16000), ...all.subarray(Math.round((at + dropped) * 16000))]);
      expect(Buffer.from(kept.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
    });

    it('should turn 1 h of 1 Hz silence (an honest 4 kB FLAC) into 6 s on disk, and say it is silent', async () => {
      const input = join(dir, 'silence-1h.flac');
      await makeLowRateSilence(input, { seconds: 3600, channels: 1 });
      const path = out();
      const decoded = await decodeToPcm(input, path, { statedSeconds: (await probeMedia(input)).durationSeconds, cutSilences: true });
      expect(decoded).toMatchObject({ durationSeconds: 6, sourceSeconds: 3600, cuts: [{ at: 3, dropped: 3594 }], silent: true });
      expect((await stat(path)).size).toBe(44 + 6 * 32_000); // decoded whole: 115.2 MB
    });
  });
});
