import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeChannelsToPcm } from './decode-channels-to-pcm.ts';
import { readWavHeader } from './read-wav-samples.ts';

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
  const header = await readWavHeader(path);
  const bytes = await readFile(path);
  const all = new Int16Array(bytes.buffer.slice(bytes.byteOffset + header.dataOffset, bytes.byteOffset + header.dataOffset + header.dataBytes));
  return all.filter((_, i) => i % header.channels === channel);
}

describe('decodeChannelsToPcm', () => {
  it('should write each channel of a stereo WAV to its own 16 kHz mono WAV with the same samples', async () => {
    const [left, right] = [join(dir, 'left.wav'), join(dir, 'right.wav')];
    const decoded = await decodeChannelsToPcm(STEREO, [left, right]);
    expect(decoded.map((d) => d.durationSeconds)).toEqual([5, 5]);
    expect(decoded[0]!.bytes).toBe((await stat(left)).size);
    for (const [path, channel] of [[left, 0], [right, 1]] as const) {
      expect(await readWavHeader(path)).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16 });
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
});
