import { fileURLToPath } from 'node:url';

/**
 * TEST HELPER: a MODELS_DIR holding the two sherpa-onnx diarization models in their real layout and
 * under their release names (scripts/fixtures/make-diarization-fixture-models.py): a band-energy speech
 * detector in pyannote segmentation-3.0's form and a fixed spectral-spread embedding in 3D-Speaker's.
 * With it `auto` diarization runs sherpa-onnx's real OfflineSpeakerDiarization; the turns follow the
 * sound, not trained speaker models. No recognition model is in it.
 */
export const DIARIZATION_FIXTURE_MODELS_DIR = fileURLToPath(new URL('./models/', import.meta.url));
