/** Parameters of spec 2.2, including the ignored ones, that are echoed back in `input`. */
const ECHOED_PARAMETERS = [
  'audio', 'language', 'speakers', 'output_format', 'domain', 'efficiency', 'multilingual', 'prompt',
  'hotwords', 'cut_start', 'cut_duration', 'post_process', 'custom_prompt', 'target_language',
  'batch_size', 'correction', 'debug', 'spelling', 'stereo', 'enhance_asr', 'log_progress', 'auto_multilingual',
] as const;

/**
 * The `input` shown in the prediction object: the spec 2.2 parameters the client sent, with a
 * `data:` URI shortened to its media type and size (it can be 400 MB), and nothing else: unknown
 * members are not echoed (a broken JS client sends its API key inside `input`, replicate-compat.md 3).
 */
export function describeInput(raw: Record<string, unknown>, uploadBytes?: number): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const name of ECHOED_PARAMETERS) {
    if (name in raw) shown[name] = raw[name];
  }
  const audio = shown.audio;
  if (typeof audio === 'string' && audio.startsWith('data:')) {
    const header = audio.slice(0, Math.min(audio.indexOf(',') + 1 || 64, 128));
    shown.audio = `${header}… (${uploadBytes ?? Math.floor((audio.length * 3) / 4)} bytes)`;
  }
  return shown;
}
