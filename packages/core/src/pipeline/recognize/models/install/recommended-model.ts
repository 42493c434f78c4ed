/**
 * The model a first start installs by itself (MODELS_AUTO_INSTALL) and the one the docs suggest
 * for a CPU-only machine: multilingual Whisper base, int8. Why this one (docs/recognition.md,
 * "First start"): it covers the 99 Whisper languages and identifies the language, so the API's
 * `language: null` and `multilingual: true` work with it; at 74 M parameters (OpenAI's published
 * size) it decodes faster than real time on two CPU cores; and its published LibriSpeech
 * test-clean WER (OpenAI, Whisper paper, appendix D) is far below what PocketSphinx measures here.
 */
export const RECOMMENDED_CPU_MODEL = 'sherpa-onnx-whisper-base';
