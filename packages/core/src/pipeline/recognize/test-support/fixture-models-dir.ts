import { fileURLToPath } from 'node:url';

/**
 * TEST HELPER: the folder of random-weight models in the real sherpa-onnx layout
 * (scripts/fixtures/make-sherpa-fixture-models.py; one subfolder per catalog name). Pass it as
 * MODELS_DIR: the models load and decode, producing unrelated words.
 */
export const FIXTURE_MODELS_DIR = fileURLToPath(new URL('./models/', import.meta.url));
