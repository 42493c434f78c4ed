import { open } from 'node:fs/promises';

/** Smallest plausible diarization model: the smallest of the catalog (pyannote segmentation-3.0) is 5.7 MB. */
const MIN_MODEL_BYTES = 64 * 1024;

/**
 * Whether `file` looks like an ONNX model: a regular file of at least 64 KiB starting like a protobuf
 * ModelProto (tag 0x08, then an ir_version of 1..30). Never loads it.
 * @returns null when it does; else why not (`is missing`, `is not a file`, `is too small (N bytes)`, `is not an ONNX model`).
 */
export async function checkOnnxFile(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return 'is missing';
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return 'is not a file';
    if (stats.size < MIN_MODEL_BYTES) return `is too small (${stats.size} bytes)`;
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    return head[0] === 0x08 && head[1]! >= 1 && head[1]! <= 30 ? null : 'is not an ONNX model';
  } finally {
    await handle.close();
  }
}
