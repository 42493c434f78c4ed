import { findLanguage, type LiveAudioFormat } from '@transcribe/core';

/** The settings of one live transcription session (docs/live.md). */
export interface LiveSessionSettings {
  format: LiveAudioFormat;
  /** `transcription.model` as the client named it (any name: the configured engine recognises). */
  model: string;
  /** Spec 2.5 code, or null for the engine's choice. */
  language: string | null;
  prompt: string | null;
  /** null: turns end only with the client's `input_audio_buffer.commit`. */
  turnDetection: { threshold: number; prefixPaddingMs: number; silenceDurationMs: number } | null;
}

/** OpenAI's defaults (Realtime API reference: server_vad threshold 0.5, prefix_padding_ms 300, silence_duration_ms 500). */
export const DEFAULT_SESSION: LiveSessionSettings = {
  format: 'audio/pcm',
  model: 'whisper-1',
  language: null,
  prompt: null,
  turnDetection: { threshold: 0.5, prefixPaddingMs: 300, silenceDurationMs: 500 },
};

/** A field of an update this service refuses: `param` is its path in the event (`session.audio.input.noise_reduction`). */
export class UnsupportedField extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Applies a GA `session.update` (`session: {type: "transcription", audio: {input: {format,
 * transcription, turn_detection, noise_reduction}}, include}`) or a beta `transcription_session.update`
 * (`session: {input_audio_format, input_audio_transcription, turn_detection,
 * input_audio_noise_reduction, include}`) to `current` (OpenAI Realtime API reference; openai-node
 * `RealtimeTranscriptionSessionCreateRequest` and `TranscriptionSessionUpdate`). All or nothing:
 * fields left out keep their values; unknown members are ignored (new SDK fields must not break old servers).
 * @param languages the engine's languages ('any', or the spec 2.5 codes it recognises).
 * @throws UnsupportedField naming the first field this service does not do: a `session.type` other than
 *   transcription, a format other than 24 kHz PCM16 / G.711, noise reduction, semantic_vad,
 *   idle_timeout_ms, `include` (logprobs), transcription `languages`/`keywords`/`delay`, a language
 *   the engine does not recognise, a threshold outside 0..1 or negative times.
 */
export function readSessionUpdate(
  event: Json,
  generation: 'ga' | 'beta',
  current: LiveSessionSettings,
  languages: readonly string[] | 'any',
): LiveSessionSettings {
  const session = event.session;
  if (!isObject(session)) throw new UnsupportedField('session', 'session must be an object.');
  const next = { ...current };
  if (session.include !== undefined && session.include !== null && !(Array.isArray(session.include) && session.include.length === 0)) {
    throw new UnsupportedField('session.include', 'include is not supported: this service gives no logprobs.');
  }
  if (generation === 'ga') {
    if (session.type !== undefined && session.type !== 'transcription') {
      throw new UnsupportedField(
        'session.type',
        `Only transcription sessions are served here (session.type "transcription"), not ${String(session.type).slice(0, 40)}.`,
      );
    }
    const audio = session.audio;
    if (audio !== undefined && !isObject(audio)) throw new UnsupportedField('session.audio', 'session.audio must be an object.');
    const input = audio?.input;
    if (input === undefined) return next;
    if (!isObject(input)) throw new UnsupportedField('session.audio.input', 'session.audio.input must be an object.');
    const at = 'session.audio.input';
    if (input.format !== undefined) next.format = readGaFormat(input.format, `${at}.format`);
    if (input.noise_reduction !== undefined && input.noise_reduction !== null) {
      throw new UnsupportedField(`${at}.noise_reduction`, 'noise_reduction is not supported: send null or leave it out.');
    }
    if (input.transcription !== undefined) Object.assign(next, readTranscription(input.transcription, `${at}.transcription`, languages));
    if (input.turn_detection !== undefined) next.turnDetection = readTurnDetection(input.turn_detection, `${at}.turn_detection`);
    return next;
  }
  if (session.input_audio_format !== undefined) next.format = readBetaFormat(session.input_audio_format);
  if (session.input_audio_noise_reduction !== undefined && session.input_audio_noise_reduction !== null) {
    throw new UnsupportedField(
      'session.input_audio_noise_reduction',
      'input_audio_noise_reduction is not supported: send null or leave it out.',
    );
  }
  if (session.input_audio_transcription !== undefined && session.input_audio_transcription !== null) {
    Object.assign(next, readTranscription(session.input_audio_transcription, 'session.input_audio_transcription', languages));
  }
  if (session.turn_detection !== undefined) next.turnDetection = readTurnDetection(session.turn_detection, 'session.turn_detection');
  return next;
}

function readGaFormat(format: unknown, at: string): LiveAudioFormat {
  if (!isObject(format)) throw new UnsupportedField(at, 'format must be an object such as {"type": "audio/pcm", "rate": 24000}.');
  if (format.type === 'audio/pcm') {
    if (format.rate !== undefined && format.rate !== 24000) {
      throw new UnsupportedField(
        `${at}.rate`,
        `Only a 24000 Hz rate is supported for audio/pcm (as on OpenAI); got ${String(format.rate).slice(0, 20)}.`,
      );
    }
    return 'audio/pcm';
  }
  if (format.type === 'audio/pcmu' || format.type === 'audio/pcma') return format.type;
  throw new UnsupportedField(
    `${at}.type`,
    `format.type must be audio/pcm, audio/pcmu or audio/pcma; got ${String(format.type).slice(0, 40)}.`,
  );
}

function readBetaFormat(format: unknown): LiveAudioFormat {
  if (format === 'pcm16') return 'audio/pcm';
  if (format === 'g711_ulaw') return 'audio/pcmu';
  if (format === 'g711_alaw') return 'audio/pcma';
  throw new UnsupportedField(
    'session.input_audio_format',
    `input_audio_format must be pcm16, g711_ulaw or g711_alaw; got ${String(format).slice(0, 40)}.`,
  );
}

function readTranscription(value: unknown, at: string, languages: readonly string[] | 'any'): Partial<LiveSessionSettings> {
  if (!isObject(value)) throw new UnsupportedField(at, 'transcription must be an object such as {"model": "whisper-1"}.');
  for (const field of ['languages', 'keywords', 'delay']) {
    if (value[field] !== undefined && value[field] !== null)
      throw new UnsupportedField(`${at}.${field}`, `${field} is not supported; leave it out.`);
  }
  const out: Partial<LiveSessionSettings> = {};
  if (typeof value.model === 'string' && value.model.trim() !== '') out.model = value.model.trim();
  if (value.prompt !== undefined)
    out.prompt = typeof value.prompt === 'string' && value.prompt.trim() !== '' ? value.prompt.slice(0, 2000) : null;
  if (value.language !== undefined && value.language !== null && value.language !== '') {
    const code = findLanguage(String(value.language))?.code;
    if (!code || (languages !== 'any' && !languages.includes(code))) {
      throw new UnsupportedField(
        `${at}.language`,
        `The language "${String(value.language).slice(0, 20)}" is not recognised by this server's engine${languages === 'any' ? '' : ` (it knows ${languages.join(', ')})`}.`,
      );
    }
    out.language = code;
  } else if (value.language !== undefined) {
    out.language = null;
  }
  return out;
}

function readTurnDetection(value: unknown, at: string): LiveSessionSettings['turnDetection'] {
  if (value === null) return null;
  if (!isObject(value)) throw new UnsupportedField(at, 'turn_detection must be an object or null.');
  if (value.type !== undefined && value.type !== 'server_vad') {
    throw new UnsupportedField(
      `${at}.type`,
      `Only server_vad turn detection is supported (or null); got ${String(value.type).slice(0, 40)}.`,
    );
  }
  if (value.idle_timeout_ms !== undefined && value.idle_timeout_ms !== null) {
    throw new UnsupportedField(`${at}.idle_timeout_ms`, 'idle_timeout_ms is not supported; leave it out.');
  }
  const number = (name: string, fallback: number, max: number) => {
    const given = value[name];
    if (given === undefined || given === null) return fallback;
    if (typeof given !== 'number' || !Number.isFinite(given) || given < 0 || given > max) {
      throw new UnsupportedField(`${at}.${name}`, `${name} must be a number from 0 to ${max}.`);
    }
    return given;
  };
  const defaults = DEFAULT_SESSION.turnDetection!;
  return {
    threshold: number('threshold', defaults.threshold, 1),
    prefixPaddingMs: number('prefix_padding_ms', defaults.prefixPaddingMs, 5000),
    silenceDurationMs: number('silence_duration_ms', defaults.silenceDurationMs, 10000),
  };
}

/** The session object of GA `session.created` / `session.updated` (RealtimeTranscriptionSessionCreateResponse). */
export function gaSessionObject(id: string, settings: LiveSessionSettings): Json {
  return {
    type: 'transcription',
    object: 'realtime.transcription_session',
    id,
    audio: {
      input: {
        format: settings.format === 'audio/pcm' ? { type: 'audio/pcm', rate: 24000 } : { type: settings.format },
        transcription: { model: settings.model, language: settings.language, prompt: settings.prompt ?? '' },
        noise_reduction: null,
        turn_detection: turnDetectionObject(settings),
      },
    },
    include: [],
  };
}

/** The session object of beta `transcription_session.updated`. */
export function betaSessionObject(id: string, settings: LiveSessionSettings): Json {
  const formats: Record<LiveAudioFormat, string> = { 'audio/pcm': 'pcm16', 'audio/pcmu': 'g711_ulaw', 'audio/pcma': 'g711_alaw' };
  return {
    id,
    object: 'realtime.transcription_session',
    input_audio_format: formats[settings.format],
    input_audio_transcription: { model: settings.model, language: settings.language, prompt: settings.prompt ?? '' },
    turn_detection: turnDetectionObject(settings),
    input_audio_noise_reduction: null,
    include: [],
  };
}

function turnDetectionObject(settings: LiveSessionSettings): Json | null {
  const vad = settings.turnDetection;
  return vad
    ? { type: 'server_vad', threshold: vad.threshold, prefix_padding_ms: vad.prefixPaddingMs, silence_duration_ms: vad.silenceDurationMs }
    : null;
}
