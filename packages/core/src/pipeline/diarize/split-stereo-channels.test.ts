import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioPath } from '../recognize/shared-audio.test-helper.ts';
import { splitStereoChannels } from './split-stereo-channels.ts';

const ffmpeg = (...args: string[]) => promisify(execFile)('ffmpeg', ['-v', 'error', '-nostdin', '-y', ...args]);
let scratch: string;
let count = 0;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'split-stereo-test-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function workDir(): Promise<string> {
  return mkdtemp(path.join(scratch, `work-${(count += 1)}-`));
}

/** jfk.wav made stereo by `filter` (real speech, one speaker on both channels). */
async function stereoJfk(name: string, filter: string): Promise<string> {
  const file = path.join(scratch, name);
  await ffmpeg('-i', audioPath('jfk.wav'), '-filter_complex', filter, '-ac', '2', '-ar', '16000', file);
  return file;
}

describe('splitStereoChannels', () => {
  it('should split stereo_two_speakers.wav, whose channels carry different speakers', async () => {
    const dir = await workDir();
    const split = await splitStereoChannels({ mediaPath: audioPath('stereo_two_speakers.wav'), channels: 2, workDir: dir });
    expect(split).toMatchObject({
      separate: true,
      left: path.join(dir, 'channel-left.wav'),
      right: path.join(dir, 'channel-right.wav'),
      durationSeconds: 5,
    });
    if (!split.separate) return;
    expect(split.comparison.envelopeCorrelation).toBeLessThan(0.3);
    expect(split.comparison.activeFractions[1]).toBeGreaterThan(0.2);
    expect((await readdir(dir)).sort()).toEqual(['channel-left.wav', 'channel-right.wav']);
  });

  it('should split two readers recorded one per channel', async () => {
    const media = path.join(scratch, 'jfk-and-librispeech.wav');
    const inputs = ['-i', audioPath('jfk.wav'), '-i', audioPath('librispeech-test-clean/1089-134686-0000.wav')];
    await ffmpeg(...inputs, '-filter_complex', '[0:a][1:a]join=inputs=2:channel_layout=stereo', '-ar', '16000', media);
    const split = await splitStereoChannels({ mediaPath: media, channels: 2, workDir: await workDir() });
    expect(split.separate).toBe(true);
  });

  it('should not touch a mono recording such as jfk.wav', async () => {
    const dir = await workDir();
    expect(await splitStereoChannels({ mediaPath: audioPath('jfk.wav'), channels: 1, workDir: dir })).toEqual({
      separate: false,
      comparison: null,
      silentSeconds: null,
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it.each([
    ['panned', '[0:a]pan=stereo|c0=c0|c1=0.5*c0'],
    [
      'picked up by a second microphone 15 ms later',
      '[0:a]asplit[a][b];[b]adelay=15,volume=0.6[d];[a][d]join=inputs=2:channel_layout=stereo',
    ],
  ])('should keep one speaker %s on both channels together and remove the channel files', async (name, filter) => {
    const dir = await workDir();
    const media = await stereoJfk(`jfk-${count}.wav`, filter);
    const split = await splitStereoChannels({ mediaPath: media, channels: 2, workDir: dir });
    expect(split.separate).toBe(false);
    expect(split.comparison!.envelopeCorrelation).toBeGreaterThan(0.8);
    expect(await readdir(dir)).toEqual([]);
  });

  it('should refuse a file that is not media with media_unreadable', async () => {
    await expect(splitStereoChannels({ mediaPath: audioPath('jfk.txt'), channels: 2, workDir: await workDir() })).rejects.toMatchObject({
      code: 'media_unreadable',
    });
  });
});
