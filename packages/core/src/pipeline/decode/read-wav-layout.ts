import { open } from 'node:fs/promises';
import { AppError } from '../../platform/errors/app-error.ts';

/** Where the PCM samples of a WAV file are and how they are encoded. */
export interface WavLayout {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /**
   * WAVE format tag: 1 = integer PCM, 3 = float; for WAVE_FORMAT_EXTENSIBLE (0xFFFE) the tag its
   * sub-format GUID starts with, so 1 means integer PCM whichever header wrote it.
   */
  formatTag: number;
  /** Byte offset of the first sample (start of the `data` chunk payload). */
  dataOffset: number;
  /** Bytes of sample data, clamped to what the file really holds. */
  dataBytes: number;
  /** Length of the audio in seconds. */
  durationSeconds: number;
}

const HEADER_PROBE_BYTES = 64 * 1024;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/**
 * The one WAV header reader of the service: reads the RIFF header of `wavPath` (only its first
 * 64 KiB) and finds the `fmt ` and `data` chunks, skipping any other chunk (e.g. `LIST`; odd sizes
 * padded). A `data` size of 0 or 0xFFFFFFFF (streamed output) or larger than the file is clamped to
 * the end of the file. The format is not judged here: assertPcm16kMono (recognisers, VAD, diarizers)
 * or readWavChunks (16-bit integer PCM) do.
 * @throws AppError `media_unreadable` when the file is not a RIFF/WAVE file or lacks `fmt `/`data`.
 */
export async function readWavLayout(wavPath: string): Promise<WavLayout> {
  const file = await open(wavPath, 'r');
  try {
    const { size } = await file.stat();
    const probe = Buffer.alloc(Math.min(HEADER_PROBE_BYTES, size));
    await file.read(probe, 0, probe.length, 0);
    return parseWavHeader(probe, size, wavPath);
  } finally {
    await file.close();
  }
}

/**
 * Parses a WAV header held in `probe` (the start of a file of `fileSize` bytes).
 * @throws AppError `media_unreadable` as readWavLayout.
 */
export function parseWavHeader(probe: Buffer, fileSize: number, name = 'WAV file'): WavLayout {
  const fail = (why: string) => new AppError('media_unreadable', `${name} is not a usable WAV file: ${why}`);
  if (probe.length < 12 || probe.toString('latin1', 0, 4) !== 'RIFF' || probe.toString('latin1', 8, 12) !== 'WAVE') {
    throw fail('no RIFF/WAVE header');
  }
  let fmt: Omit<WavLayout, 'dataOffset' | 'dataBytes' | 'durationSeconds'> | null = null;
  let offset = 12;
  while (offset + 8 <= probe.length) {
    const id = probe.toString('latin1', offset, offset + 4);
    const chunkBytes = probe.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (chunkBytes < 16 || body + 16 > probe.length) throw fail('short `fmt ` chunk');
      const tag = probe.readUInt16LE(body);
      fmt = {
        formatTag: tag === WAVE_FORMAT_EXTENSIBLE && chunkBytes >= 26 && body + 26 <= probe.length ? probe.readUInt16LE(body + 24) : tag,
        channels: probe.readUInt16LE(body + 2),
        sampleRate: probe.readUInt32LE(body + 4),
        bitsPerSample: probe.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (fmt === null) throw fail('`data` chunk before `fmt ` chunk');
      const available = fileSize - body;
      const declared = chunkBytes === 0 || chunkBytes === 0xffffffff ? available : chunkBytes;
      const dataBytes = Math.max(0, Math.min(declared, available));
      const bytesPerSecond = fmt.sampleRate * fmt.channels * (fmt.bitsPerSample / 8);
      return { ...fmt, dataOffset: body, dataBytes, durationSeconds: bytesPerSecond > 0 ? dataBytes / bytesPerSecond : 0 };
    }
    offset = body + chunkBytes + (chunkBytes % 2); // chunks are word-aligned
  }
  throw fail(fmt === null ? 'no `fmt ` chunk' : 'no `data` chunk in the first 64 KiB');
}

/**
 * Checks that `layout` is 16 kHz mono signed 16-bit PCM, the only input the recognisers take.
 * @throws AppError `recognition_failed` naming the actual format (a pipeline bug: decode first).
 */
export function assertPcm16kMono(layout: WavLayout, name: string): void {
  if (layout.formatTag !== 1 || layout.sampleRate !== 16000 || layout.channels !== 1 || layout.bitsPerSample !== 16) {
    throw new AppError(
      'recognition_failed',
      `${name} must be 16 kHz mono 16-bit PCM WAV, got format ${layout.formatTag}, ${layout.sampleRate} Hz, ` +
        `${layout.channels} channel(s), ${layout.bitsPerSample} bits (decode it with pipeline/decode/decode-to-pcm.ts first)`,
    );
  }
}
