import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIARIZATION_FIXTURE_MODELS_DIR } from '../test-support/diarization-fixture-models-dir.ts';
import {
  DIARIZATION_MODEL_CATALOG,
  findDiarizationCatalogModel,
  RECOMMENDED_EMBEDDING_MODEL,
  RECOMMENDED_SEGMENTATION_MODEL,
} from './diarization-model-catalog.ts';
import { findInstalledSpeakerEmbeddingModel, inspectDiarizationModel } from './find-installed-diarization-models.ts';

/** An ONNX file in the embedding model's real format (the fixture of test-support/models). */
const ONNX = path.join(DIARIZATION_FIXTURE_MODELS_DIR, '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx');

describe('the diarization model catalog', () => {
  it('should name release assets by their release, with the recommended pair first in each role', () => {
    const roles = DIARIZATION_MODEL_CATALOG.map((model) => model.role);
    expect(roles.indexOf('embedding')).toBe(roles.lastIndexOf('segmentation') + 1);
    expect(DIARIZATION_MODEL_CATALOG.find((model) => model.role === 'segmentation')?.name).toBe(RECOMMENDED_SEGMENTATION_MODEL);
    expect(DIARIZATION_MODEL_CATALOG.find((model) => model.role === 'embedding')?.name).toBe(RECOMMENDED_EMBEDDING_MODEL);
    for (const model of DIARIZATION_MODEL_CATALOG) {
      const release = model.role === 'segmentation' ? 'speaker-segmentation-models' : 'speaker-recongition-models';
      const extension = model.packaging === 'tar.bz2' ? '.tar.bz2' : '.onnx';
      expect(model.archiveUrl).toBe(`https://github.com/k2-fsa/sherpa-onnx/releases/download/${release}/${model.name}${extension}`);
      expect(model.figures.length).toBeGreaterThan(0);
      expect(model.megabytes).toBeGreaterThan(1);
    }
    expect(findDiarizationCatalogModel('nemo_en_titanet_large')?.role).toBe('embedding');
    expect(findDiarizationCatalogModel('sherpa-onnx-whisper-base')).toBeUndefined();
  });
});

describe('findInstalledSpeakerEmbeddingModel', () => {
  let modelsDir: string;
  beforeEach(async () => {
    modelsDir = await mkdtemp(path.join(tmpdir(), 'embedding-models-'));
  });
  afterEach(async () => {
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('should find nothing in an empty or missing MODELS_DIR', async () => {
    expect(await findInstalledSpeakerEmbeddingModel(modelsDir)).toBeNull();
    expect(await findInstalledSpeakerEmbeddingModel(path.join(modelsDir, 'absent'))).toBeNull();
  });

  it('should find a model where npm run models installs it, and a loose one put there by hand', async () => {
    const titanet = 'nemo_en_titanet_large';
    await mkdir(path.join(modelsDir, titanet));
    await copyFile(ONNX, path.join(modelsDir, titanet, `${titanet}.onnx`));
    expect(await findInstalledSpeakerEmbeddingModel(modelsDir)).toEqual({
      model: findDiarizationCatalogModel(titanet),
      path: path.join(modelsDir, titanet, `${titanet}.onnx`),
    });
    const zh = '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k';
    await rm(path.join(modelsDir, titanet), { recursive: true });
    await copyFile(ONNX, path.join(modelsDir, `${zh}.onnx`));
    expect(await findInstalledSpeakerEmbeddingModel(modelsDir)).toEqual({ model: findDiarizationCatalogModel(zh), path: path.join(modelsDir, `${zh}.onnx`) });
  });

  it('should prefer the catalog order (the recommended model first) and pass over a damaged file', async () => {
    await copyFile(ONNX, path.join(modelsDir, '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx'));
    await mkdir(path.join(modelsDir, RECOMMENDED_EMBEDDING_MODEL));
    const recommended = path.join(modelsDir, RECOMMENDED_EMBEDDING_MODEL, `${RECOMMENDED_EMBEDDING_MODEL}.onnx`);
    await copyFile(ONNX, recommended);
    expect((await findInstalledSpeakerEmbeddingModel(modelsDir))?.path).toBe(recommended);
    await writeFile(recommended, 'not a model');
    const model = findDiarizationCatalogModel(RECOMMENDED_EMBEDDING_MODEL)!;
    expect(await inspectDiarizationModel(modelsDir, model)).toMatchObject({ layout: 'folder', problem: 'is too small (11 bytes)' });
    expect((await findInstalledSpeakerEmbeddingModel(modelsDir))?.model.name).toBe('3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k');
  });
});
