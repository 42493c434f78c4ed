import { copyFile, cp, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { packTarBz2 } from '../../recognize/models/install/serve-release-files.test-helper.ts';
import { RECOMMENDED_EMBEDDING_MODEL, RECOMMENDED_SEGMENTATION_MODEL } from '../models/diarization-model-catalog.ts';
import { DIARIZATION_FIXTURE_MODELS_DIR } from './diarization-fixture-models-dir.ts';

/** The release files of the recommended diarization pair, made from the fixture models. */
export interface DiarizationReleaseFiles {
  /** URL path (`/asr-models/NAME.tar.bz2`, `/asr-models/NAME.onnx`) → bytes, for serveReleaseFiles (mirror `…/asr-models/`). */
  files: Map<string, Buffer>;
  /** `<work>/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2`: the segmentation release archive. */
  segmentationArchive: string;
  /** `<work>/wespeaker_en_voxceleb_resnet34_LM.onnx`: the embedding release asset. */
  embeddingFile: string;
}

/**
 * TEST HELPER: the recommended pair's release assets as the releases pack them, with the hand-made
 * fixture graphs of test-support/models inside (a band-energy segmentation and a spectral-spread
 * embedding, real sherpa-onnx formats): `sherpa-onnx-pyannote-segmentation-3-0.tar.bz2` holding the
 * folder with `model.onnx`, and the embedding fixture under the name `wespeaker_en_voxceleb_resnet34_LM.onnx`
 * (sherpa-onnx reads its `framework` metadata, not its name). They load and run, and the diarization
 * self-test refuses them: they find one speaker in the two-speaker clip.
 * @param work a folder the files are written into.
 */
export async function makeDiarizationReleaseFiles(work: string): Promise<DiarizationReleaseFiles> {
  const source = path.join(work, 'diarization-src');
  await mkdir(source, { recursive: true });
  await cp(path.join(DIARIZATION_FIXTURE_MODELS_DIR, RECOMMENDED_SEGMENTATION_MODEL), path.join(source, RECOMMENDED_SEGMENTATION_MODEL), {
    recursive: true,
  });
  const segmentationArchive = path.join(work, `${RECOMMENDED_SEGMENTATION_MODEL}.tar.bz2`);
  await packTarBz2(source, RECOMMENDED_SEGMENTATION_MODEL, segmentationArchive);
  const embeddingFile = path.join(work, `${RECOMMENDED_EMBEDDING_MODEL}.onnx`);
  await copyFile(path.join(DIARIZATION_FIXTURE_MODELS_DIR, '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx'), embeddingFile);
  const files = new Map([
    [`/asr-models/${RECOMMENDED_SEGMENTATION_MODEL}.tar.bz2`, await readFile(segmentationArchive)],
    [`/asr-models/${RECOMMENDED_EMBEDDING_MODEL}.onnx`, await readFile(embeddingFile)],
  ]);
  return { files, segmentationArchive, embeddingFile };
}
