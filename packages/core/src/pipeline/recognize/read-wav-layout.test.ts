import { describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { assertPcm16kMono, parseWavHeader, readWavLayout } from './read-wav-layout.ts';
import { audioPath } from './shared-audio.test-helper.ts';

function wavHeader(options: { dataBytes: number; extraChunk?: Buffer; sampleRate?: number }): Buffer {
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'latin1');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8);
  fmt.writeUInt16LE(1, 10);
  fmt.writeUInt32LE(options.sampleRate ?? 16000, 12);
  fmt.writeUInt32LE((options.sampleRate ?? 16000) * 2, 16);
  fmt.writeUInt16LE(2, 20);
  fmt.writeUInt16LE(16, 22);
  const data = Buffer.alloc(8);
  data.write('data', 0, 'latin1');
  data.writeUInt32LE(options.dataBytes, 4);
  return Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVE', 'latin1'), fmt, options.extraChunk ?? Buffer.alloc(0), data]);
}

describe('readWavLayout', () => {
  it('should find the data chunk of jfk.wav after its LIST chunk', async () => {
    const layout = await readWavLayout(audioPath('jfk.wav'));
    expect(layout).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16, formatTag: 1, dataOffset: 78 });
    expect(layout.durationSeconds).toBeCloseTo(11, 1);
  });

  it('should skip an odd-sized chunk including its pad byte', () => {
    const odd = Buffer.concat([Buffer.from('junk', 'latin1'), Buffer.from([3, 0, 0, 0]), Buffer.from([1, 2, 3, 0])]);
    const header = wavHeader({ dataBytes: 3200, extraChunk: odd });
    const layout = parseWavHeader(header, header.length + 3200);
    expect(layout.dataOffset).toBe(header.length);
    expect(layout.durationSeconds).toBeCloseTo(0.1, 6);
  });

  it('should clamp a streamed (0xFFFFFFFF) data size to the file size', () => {
    const header = wavHeader({ dataBytes: 0xffffffff });
    expect(parseWavHeader(header, header.length + 32000).durationSeconds).toBeCloseTo(1, 6);
  });

  it('should refuse a file that is not RIFF/WAVE with media_unreadable', () => {
    expect(() => parseWavHeader(Buffer.from('ID3 this is an mp3 file'), 100)).toThrow(
      expect.objectContaining({ code: 'media_unreadable' }),
    );
  });

  it('should refuse 44.1 kHz audio with recognition_failed naming the rate', () => {
    const header = wavHeader({ dataBytes: 100, sampleRate: 44100 });
    const layout = parseWavHeader(header, header.length + 100);
    let caught: unknown;
    try {
      assertPcm16kMono(layout, 'x.wav');
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught, 'recognition_failed')).toBe(true);
    expect((caught as Error).message).toContain('44100 Hz');
  });
});
