import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseDiarizer } from './diarize-recording.ts';
import { locateDiarizationModels } from './locate-diarization-models.ts';

/** Where the files are: the segmentation model as its archive unpacks, the embedding model loose (downloaded by hand). */
const DIARIZATION_MODEL_FILES = {
  segmentation: path.join('sherpa-onnx-pyannote-segmentation-3-0', 'model.onnx'),
  embedding: '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx',
} as const;
const INSTALL = 'npm run models -- download diarization';

let scratch: string;
let count = 0;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'diarization-models-test-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A fresh models folder holding the given files (`onnx`: 64 KiB with an ONNX header; `text`: not ONNX). */
async function modelsDirWith(files: Partial<Record<keyof typeof DIARIZATION_MODEL_FILES, 'onnx' | 'text'>>): Promise<string> {
  const dir = path.join(scratch, `models-${(count += 1)}`);
  for (const [kind, content] of Object.entries(files)) {
    const file = path.join(dir, DIARIZATION_MODEL_FILES[kind as keyof typeof DIARIZATION_MODEL_FILES]);
    await mkdir(path.dirname(file), { recursive: true });
    const bytes = Buffer.alloc(64 * 1024, content === 'onnx' ? 0 : 0x41);
    if (content === 'onnx') bytes.set([0x08, 0x08]);
    await writeFile(file, bytes);
  }
  await mkdir(dir, { recursive: true });
  return dir;
}

describe('chooseDiarizer', () => {
  it('should choose the built-in diarizer without a models directory or with neither model file', async () => {
    const none = { kind: 'builtin', why: `no neural diarization model installed; install with ${INSTALL}` };
    expect(await chooseDiarizer(null)).toEqual({ kind: 'builtin', why: `no MODELS_DIR; install with ${INSTALL}` });
    expect(await chooseDiarizer(undefined)).toEqual({ kind: 'builtin', why: `no MODELS_DIR; install with ${INSTALL}` });
    expect(await chooseDiarizer(await modelsDirWith({}))).toEqual(none);
    expect(await chooseDiarizer(path.join(scratch, 'does-not-exist'))).toEqual(none);
  });

  it('should choose sherpa-onnx with both model paths when both files are there', async () => {
    const dir = await modelsDirWith({ segmentation: 'onnx', embedding: 'onnx' });
    expect(await chooseDiarizer(dir)).toEqual({
      kind: 'sherpa',
      models: {
        segmentation: path.join(dir, 'sherpa-onnx-pyannote-segmentation-3-0', 'model.onnx'),
        embedding: path.join(dir, '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx'),
      },
      names: { segmentation: 'sherpa-onnx-pyannote-segmentation-3-0', embedding: '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k' },
      why: 'a neural diarization pair is installed',
    });
  });

  it('should prefer the recommended embedding model where npm run models installs it over a loose one', async () => {
    const dir = await modelsDirWith({ segmentation: 'onnx', embedding: 'onnx' });
    const name = 'wespeaker_en_voxceleb_resnet34_LM';
    await mkdir(path.join(dir, name));
    const bytes = Buffer.alloc(64 * 1024);
    bytes.set([0x08, 0x08]);
    await writeFile(path.join(dir, name, `${name}.onnx`), bytes);
    expect(await chooseDiarizer(dir)).toMatchObject({
      kind: 'sherpa',
      models: { embedding: path.join(dir, name, `${name}.onnx`) },
      names: { segmentation: 'sherpa-onnx-pyannote-segmentation-3-0', embedding: name },
    });
  });

  it('should keep the built-in diarizer when asked to, whatever the folder holds', async () => {
    expect(await chooseDiarizer(await modelsDirWith({ segmentation: 'onnx' }), 'builtin')).toEqual({
      kind: 'builtin',
      why: 'the built-in diarizer was asked for',
    });
  });
});

describe('locateDiarizationModels', () => {
  it('should name the missing segmentation model when only the embedding model is there', async () => {
    const dir = await modelsDirWith({ embedding: 'onnx' });
    await expect(locateDiarizationModels(dir)).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining(
        `No speaker segmentation model is installed: ${path.join(dir, 'sherpa-onnx-pyannote-segmentation-3-0', 'model.onnx')} is missing: install the pair with \`${INSTALL}\``,
      ),
    });
  });

  it('should name a model file that is not ONNX', async () => {
    const dir = await modelsDirWith({ segmentation: 'onnx', embedding: 'text' });
    await expect(locateDiarizationModels(dir)).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining('3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx is not an ONNX model'),
    });
  });

  it('should refuse when sherpa-onnx is required but no models directory is set or the files are missing', async () => {
    await expect(locateDiarizationModels(null, true)).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining('needs a models directory'),
    });
    await expect(locateDiarizationModels(await modelsDirWith({}), true)).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining('model.onnx is missing'),
    });
  });
});
