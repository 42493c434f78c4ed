import { openAsBlob } from 'node:fs';
import { encodeWavHeader } from '../decode/encode-wav-header.ts';
import type { WavLayout } from '../decode/read-wav-layout.ts';

/**
 * The samples from `startSeconds` to `endSeconds` of a PCM WAV file as a standalone WAV file
 * (44-byte header + samples) that is read lazily: `wav` is the whole file as a file-backed Blob
 * (`fs.openAsBlob`), and the result only references the byte range, so holding or sending it costs
 * no memory for the samples (a multipart upload streams it from the disk). Sample positions are the
 * times × sample rate, rounded; the range is clamped to the audio the file holds.
 * @param layout the file's layout from readWavLayout (checked 16 kHz mono 16-bit by the caller).
 * @returns a Blob of 44 + 2 × samples bytes for 16-bit mono (32 000 bytes per second at 16 kHz);
 *   reading it fails (NotReadableError) when the file changed after `openAsBlob`.
 */
export function sliceWavBlob(wav: Blob, layout: WavLayout, startSeconds: number, endSeconds: number): Blob {
  const frameBytes = layout.channels * (layout.bitsPerSample / 8);
  const frames = Math.floor(layout.dataBytes / frameBytes);
  const first = Math.min(frames, Math.max(0, Math.round(startSeconds * layout.sampleRate)));
  const end = Math.min(frames, Math.max(first, Math.round(endSeconds * layout.sampleRate)));
  const dataBytes = (end - first) * frameBytes;
  const from = layout.dataOffset + first * frameBytes;
  const header = encodeWavHeader(dataBytes, layout.sampleRate, layout.channels, layout.bitsPerSample);
  return new Blob([header, wav.slice(from, from + dataBytes)], { type: 'audio/wav' });
}

/**
 * Reads the samples from `startSeconds` to `endSeconds` of a PCM WAV file as a standalone WAV file
 * in memory (sliceWavBlob's bytes), reading only that part of the file.
 * @returns a Buffer of 44 + 2 × samples bytes for 16-bit mono.
 * @throws the file system error when the file cannot be read.
 */
export async function readWavSlice(wavPath: string, layout: WavLayout, startSeconds: number, endSeconds: number): Promise<Buffer> {
  const slice = sliceWavBlob(await openAsBlob(wavPath), layout, startSeconds, endSeconds);
  return Buffer.from(await slice.arrayBuffer());
}
