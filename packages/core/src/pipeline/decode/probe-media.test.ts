import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { probeMedia } from './probe-media.ts';
import { failure } from './test-support/failure-of.ts';

const AUDIO = '/work/shared/audio';
const run = promisify(execFile);
let dir: string;
let video: string;
let silentVideo: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'probe-media-'));
  video = join(dir, 'with-audio.mp4');
  silentVideo = join(dir, 'no-audio.mp4');
  const picture = ['-f', 'lavfi', '-i', 'testsrc=duration=2:size=160x120:rate=10'];
  const tone = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'];
  await run('ffmpeg', ['-v', 'error', '-y', ...picture, ...tone, '-c:v', 'mpeg4', '-c:a', 'aac', '-shortest', video]);
  await run('ffmpeg', ['-v', 'error', '-y', ...picture, '-c:v', 'mpeg4', silentVideo]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('probeMedia', () => {
  describe('when the file is a recording', () => {
    it('should describe jfk.wav as 16 kHz mono PCM of about 11 s', async () => {
      const probe = await probeMedia(`${AUDIO}/jfk.wav`);
      expect(probe).toMatchObject({ formatName: 'wav', audioStreams: 1, channels: 1, sampleRate: 16000, codec: 'pcm_s16le' });
      expect(probe.durationSeconds).toBeCloseTo(11, 0);
    });

    it('should read an Ogg recording', async () => {
      const probe = await probeMedia(`${AUDIO}/fleurs/original-ogg/fleurs-en-000.ogg`);
      expect(probe.formatName).toBe('ogg');
      expect(probe.durationSeconds).toBeGreaterThan(1);
      expect(probe.sampleRate).toBeGreaterThan(0);
    });

    it('should read a FLAC recording', async () => {
      const probe = await probeMedia(`${AUDIO}/librispeech-test-clean/1089-134686-0000.flac`);
      expect(probe).toMatchObject({ formatName: 'flac', codec: 'flac', channels: 1, sampleRate: 16000 });
      expect(probe.durationSeconds).toBeGreaterThan(1);
    });

    it('should read the audio track of a video', async () => {
      const probe = await probeMedia(video);
      expect(probe.codec).toBe('aac');
      expect(probe.formatName).toContain('mp4');
      expect(probe.durationSeconds).toBeCloseTo(2, 0);
    });

    it('should read a stereo music file', async () => {
      const probe = await probeMedia(`${AUDIO}/music/brahms_hungarian_dance_5_us_army_strings.ogg`);
      expect(probe.audioStreams).toBe(1);
      expect(probe.channels).toBeGreaterThanOrEqual(1);
    });
  });

  describe('when the file is not a usable recording', () => {
    it('should throw media_unreadable for a text file, without its path in the message', async () => {
      const path = join(dir, 'notes.txt');
      await writeFile(path, 'hello, this is not audio\n'.repeat(20));
      const error = await failure(probeMedia(path));
      expect(isAppError(error, 'media_unreadable')).toBe(true);
      expect(error.message).toBe('The file is not a recording we can read (audio or video).');
      expect(error.message).not.toContain(dir);
    });

    it('should throw media_no_audio for a video without sound', async () => {
      const error = await failure(probeMedia(silentVideo));
      expect(isAppError(error, 'media_no_audio')).toBe(true);
      expect(error.message).toBe('The file has no audio track.');
    });

    it('should refuse a playlist that points to the network', async () => {
      const path = join(dir, 'list.m3u8');
      await writeFile(path, '#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nhttp://127.0.0.1:9/a.ts\n#EXT-X-ENDLIST\n');
      const error = await failure(probeMedia(path));
      expect(isAppError(error, 'media_unreadable')).toBe(true);
    });

    it('should refuse a playlist of local files even though ffprobe can read it', async () => {
      await run('ffmpeg', ['-v', 'error', '-y', '-i', `${AUDIO}/jfk.wav`, '-c:a', 'aac', '-f', 'mpegts', join(dir, 'seg.ts')]);
      const path = join(dir, 'local.m3u8');
      await writeFile(path, '#EXTM3U\n#EXT-X-TARGETDURATION:11\n#EXTINF:11,\nseg.ts\n#EXT-X-ENDLIST\n');
      const error = await failure(probeMedia(path));
      expect(isAppError(error, 'media_unreadable')).toBe(true);
    });

    it('should either read a truncated wav as short or call it unreadable, never crash', async () => {
      const path = join(dir, 'truncated.wav');
      await writeFile(path, (await readFile(`${AUDIO}/jfk.wav`)).subarray(0, 1000));
      const outcome = await probeMedia(path).then(
        (probe) => ({ ok: true as const, duration: probe.durationSeconds }),
        (error: unknown) => ({ ok: false as const, unreadable: isAppError(error, 'media_unreadable') }),
      );
      if (outcome.ok) expect(outcome.duration).toBeLessThan(1);
      else expect(outcome.unreadable).toBe(true);
    });

    it('should give NaN duration for a WAV that states none', async () => {
      const path = join(dir, 'empty.wav');
      await writeFile(path, emptyWav());
      const probe = await probeMedia(path);
      expect(probe.codec).toBe('pcm_s16le');
      expect(probe.durationSeconds).toBeNaN();
    });

    it('should throw media_unreadable for a missing file', async () => {
      const error = await failure(probeMedia(join(dir, 'does-not-exist.wav')));
      expect(isAppError(error, 'media_unreadable')).toBe(true);
    });
  });
});

/** A 44-byte 16 kHz mono WAV header with no samples. */
function emptyWav(): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16000, 24);
  header.writeUInt32LE(32000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(0, 40);
  return header;
}
