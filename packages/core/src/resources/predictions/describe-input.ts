import { SPEC_INPUT_PARAMETERS } from '../../contract/validation/prediction-input-schema.ts';

/** Parameters of the earlier interface variant (spec 9), echoed as that variant's clients sent them. */
export const LEGACY_ECHOED_PARAMETERS = ['url', 'output_format'] as const;

/** Which members of a raw input are shown, and which one holds the recording. */
export interface InputEcho {
  /** The members echoed, in this order, when sent. */
  parameters: readonly string[];
  /** The member holding the recording, whose `data:` URI is shortened. */
  audioParam: string;
}

/** The current interface: spec 2.2's parameters (the ignored ones last, as the schema lists them), the recording in `audio`. */
export const CURRENT_INPUT_ECHO: InputEcho = { parameters: SPEC_INPUT_PARAMETERS, audioParam: 'audio' };

/** The earlier variant (spec 9): `url` and `output_format` as sent, the recording in `url`. */
export const LEGACY_INPUT_ECHO: InputEcho = { parameters: LEGACY_ECHOED_PARAMETERS, audioParam: 'url' };

/**
 * The `input` shown in the prediction object: the parameters of `echo` the client sent, in that
 * order, with a `data:` URI shortened to its media type and size (it can be 400 MB), and nothing
 * else: unknown members are not echoed (a broken JS client sends its API key inside `input`,
 * replicate-compat.md 3).
 * @param uploadBytes size of the stored recording when it came inline, bytes (shown for a `data:` URI).
 */
export function describeInput(
  raw: Record<string, unknown>,
  uploadBytes?: number,
  echo: InputEcho = CURRENT_INPUT_ECHO,
): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const name of echo.parameters) {
    if (Object.hasOwn(raw, name)) shown[name] = raw[name];
  }
  const audio = shown[echo.audioParam];
  if (typeof audio === 'string' && audio.startsWith('data:')) {
    const header = audio.slice(0, Math.min(audio.indexOf(',') + 1 || 64, 128));
    shown[echo.audioParam] = `${header}… (${uploadBytes ?? Math.floor((audio.length * 3) / 4)} bytes)`;
  }
  return shown;
}
