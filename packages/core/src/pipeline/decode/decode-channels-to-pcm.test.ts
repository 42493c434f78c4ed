import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeChannelsToPcm } from './decode-channels-to-pcm.ts';
import { probeMedia } from './probe-media.ts';
import { readWavLayout } from './read-wav-layout.ts';
import { failure } from './test-support/failure-of.ts';
import { makeFlacBomb } from './test-support/make-flac-bomb.ts';
import { makeLowRateSilence } from './test-support/make-low-rate-silence.ts';
import { recordFfmpegOutputs } from './test-support/record-ffmpeg-outputs.ts';

const STEREO = '/work/shared/audio/stereo_two_speakers.wav';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'decode-channels-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The int16 samples of one channel of a 16-bit PCM WAV file. */
async function channelSamples(path: string, channel: number): Promise<Int16Array> {
  const header = await readWavLayout(path);
  const bytes = await readFile(path);
  const all = new Int16Array(
    bytes.buffer.slice(bytes.byteOffset + header.dataOffset, bytes.byteOffset + header.dataOffset + header.dataBytes),
  );
  return all.filter((_, i) => i % header.channels === channel);
}

describe('decodeChannelsToPcm', () => {
  it('should write each channel of a stereo WAV to its own 16 kHz mono WAV with the same samples', async () => {
    const [left, right] = [join(dir, 'left.wav'), join(dir, 'right.wav')];
    const decoded = await decodeChannelsToPcm(STEREO, [left, right]);
    expect(decoded.map((d) => d.durationSeconds)).toEqual([5, 5]);
    expect(decoded[0]!.bytes).toBe((await stat(left)).size);
    for (const [path, channel] of [
      [left, 0],
      [right, 1],
    ] as const) {
      expect(await readWavLayout(path)).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16 });
      const [got, expected] = [await channelSamples(path, 0), await channelSamples(STEREO, channel)];
      expect(got.length).toBe(80_000);
      expect(Buffer.from(got.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
    }
  });

  it('should refuse a file that is not media with media_unreadable and leave no output behind', async () => {
    const notMedia = join(dir, 'notes.txt');
    await writeFile(notMedia, 'just some text, not a recording\n');
    const outputs = [join(dir, 'bad-left.wav'), join(dir, 'bad-right.wav')];
    await expect(decodeChannelsToPcm(notMedia, outputs)).rejects.toMatchObject({ code: 'media_unreadable', param: 'audio' });
    for (const output of outputs) await expect(stat(output)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('should refuse no outputs at all', async () => {
    await expect(decodeChannelsToPcm(STEREO, [])).rejects.toThrow(RangeError);
  });

  it('should decode an honest recording in full when given its stated length', async () => {
    const outputs = [join(dir, 'stated-left.wav'), join(dir, 'stated-right.wav')];
    const decoded = await decodeChannelsToPcm(STEREO, outputs, { statedSeconds: (await probeMedia(STEREO)).durationSeconds });
    expect(decoded.map((d) => d.durationSeconds)).toEqual([5, 5]);
  });

  it('should cut the silence both channels share, giving every channel the same cuts', async () => {
    const input = join(dir, 'silence-1h-stereo.flac');
    await makeLowRateSilence(input, { seconds: 3600 });
    const outputs = [join(dir, 'silent-left.wav'), join(dir, 'silent-right.wav')];
    const decoded = await decodeChannelsToPcm(input, outputs, { statedSeconds: 3600, cutSilences: true });
    for (const channel of decoded)
      expect(channel).toMatchObject({ durationSeconds: 6, sourceSeconds: 3600, cuts: [{ at: 3, dropped: 3594 }], silent: true });
    for (const output of outputs) expect((await stat(output)).size).toBe(44 + 6 * 32_000); // decoded whole: 115.2 MB each
    // A recording with sound comes out whole: nothing to cut.
    const sound = await decodeChannelsToPcm(STEREO, outputs, { cutSilences: true });
    expect(sound.map((d) => [d.durationSeconds, d.cuts.length, d.silent])).toEqual([
      [5, 0, false],
      [5, 0, false],
    ]);
  });

  it('should refuse a 16 kB stereo FLAC whose header states 10 s but which holds 25 h, after writing at most 81 s per channel', async () => {
    const bomb = join(dir, 'bomb.flac');
    expect(await makeFlacBomb(bomb, { hours: 25, statedSamples: 10 })).toBeLessThan(20_000);
    const probe = await probeMedia(bomb);
    expect(probe).toMatchObject({ durationSeconds: 10, channels: 2 });
    const recorder = await recordFfmpegOutputs(dir);
    const outputs = [join(dir, 'bomb-left.wav'), join(dir, 'bomb-right.wav')];
    const saved = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = recorder.script;
    try {
      const error = await failure(decodeChannelsToPcm(bomb, outputs, { statedSeconds: probe.durationSeconds }));
      expect(error).toMatchObject({ code: 'media_unreadable', param: 'audio' });
      expect(error.message).toMatch(/^The recording is longer than its header says: it states 10 s, but its audio runs past 80 s/);
    } finally {
      if (saved === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = saved;
    }
    // One pipe carries both channels (16 kHz, 2 bytes a sample each): 81 s of each, not 2 × 2.88 GB.
    const written = await recorder.outputs();
    expect(written.map((w) => w.path)).toEqual(['pipe:1']);
    for (const { bytes } of written) expect(bytes).toBeLessThanOrEqual(2 * 81 * 32_000);
    for (const output of outputs) await expect(stat(output)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('should refuse a bomb of 18-hour frames (65,535 samples at 1 Hz) within 1 GB of memory', async () => {
    const bomb = join(dir, 'big-frames.flac');
    await makeFlacBomb(bomb, { hours: 25, statedSamples: 10, frameSamples: 65_535 });
    const recorder = await recordFfmpegOutputs(await mkdtemp(join(dir, 'limited-')), { virtualMemoryKb: 1_000_000 });
    const outputs = [join(dir, 'frames-left.wav'), join(dir, 'frames-right.wav')];
    const saved = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = recorder.script;
    try {
      // Resampled whole, one frame is a billion samples: ffmpeg took 10 GB and failed here with "Cannot allocate memory".
      const error = await failure(decodeChannelsToPcm(bomb, outputs, { statedSeconds: 10 }));
      expect(error.message).toMatch(/^The recording is longer than its header says/);
    } finally {
      if (saved === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = saved;
    }
    for (const { bytes } of await recorder.outputs()) expect(bytes).toBeLessThanOrEqual(2 * 81 * 32_000);
  });
});
