import { describe, expect, it } from 'vitest';
import { findLanguage } from '../../../contract/spec/languages.ts';
import { ASR_MODELS_RELEASE_URL, FAMILY_FILE_ROLES, findCatalogModel, listModelFiles, MODEL_CATALOG } from './model-catalog.ts';

describe('MODEL_CATALOG', () => {
  it('should have unique names that are safe folder names', () => {
    const names = MODEL_CATALOG.map((model) => model.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^sherpa-onnx-[a-z0-9][a-z0-9.-]*$/);
  });

  it('should point every archive at the official k2-fsa asr-models release', () => {
    for (const model of MODEL_CATALOG) {
      expect(model.archiveUrl).toBe(`https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/${model.name}.tar.bz2`);
      expect(model.archiveUrl.startsWith(ASR_MODELS_RELEASE_URL)).toBe(true);
    }
  });

  it('should carry no invented hash: k2-fsa publishes no checksums for these archives, so every sha256 is null', () => {
    // A hash may be added only from an official publication (then as 64 lowercase hex digits);
    // until then the first install pins the archive in models.lock.json.
    for (const model of MODEL_CATALOG) {
      if (model.sha256 !== null) expect(model.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(MODEL_CATALOG.filter((model) => model.sha256 !== null)).toEqual([]);
  });

  it('should name a file for every role its family needs, and nothing else', () => {
    for (const model of MODEL_CATALOG) {
      expect(Object.keys(model.files).sort()).toEqual([...FAMILY_FILE_ROLES[model.family]].sort());
      const files = listModelFiles(model);
      expect(files.every((file) => /^[\w.-]+\.(onnx|txt)$/.test(file))).toBe(true);
      expect(new Set(files).size).toBe(files.length);
    }
  });

  it('should list only spec 2.5 language codes, at least one per model', () => {
    for (const model of MODEL_CATALOG) {
      expect(model.languages.length).toBeGreaterThan(0);
      for (const code of model.languages) expect(findLanguage(code)?.code).toBe(code);
    }
  });

  it('should describe the models the issue names with their real file names', () => {
    expect(findCatalogModel('sherpa-onnx-whisper-tiny')?.files).toEqual({
      encoder: 'tiny-encoder.int8.onnx', decoder: 'tiny-decoder.int8.onnx', tokens: 'tiny-tokens.txt',
    });
    expect(findCatalogModel('sherpa-onnx-whisper-tiny')?.languages).toHaveLength(99);
    expect(findCatalogModel('sherpa-onnx-whisper-base')?.detectsLanguage).toBe(true);
    expect(findCatalogModel('sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17')?.languages).toEqual(['zh', 'en', 'ja', 'ko', 'yue']);
    expect(findCatalogModel('sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8')?.family).toBe('nemo-transducer');
    expect(findCatalogModel('sherpa-onnx-moonshine-tiny-en-int8')?.files.uncachedDecoder).toBe('uncached_decode.int8.onnx');
    expect(findCatalogModel('sherpa-onnx-whisper-tiny.en')?.files.encoder).toBe('tiny.en-encoder.int8.onnx');
    expect(findCatalogModel('nope')).toBeUndefined();
  });
});
