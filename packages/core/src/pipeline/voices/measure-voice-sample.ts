import { join } from 'node:path';
import { AppError } from '../../platform/errors/app-error.ts';
import { decodeToPcm } from '../decode/decode-to-pcm.ts';
import { probeMedia } from '../decode/probe-media.ts';
import { diarizeBuiltin } from '../diarize/diarize-builtin.ts';
import { detectSpeech } from '../vad/detect-speech.ts';
import type { VadWorkerPool } from '../vad/create-vad-worker-pool.ts';
import { MAX_SAMPLE_SECONDS, MIN_SAMPLE_SECONDS, MIN_SAMPLE_SPEECH_SECONDS } from '../../contract/validation/known-voices-schema.ts';
import { speechSeconds } from './embed-speech-builtin.ts';
import { embedSpeechGroups, type VoiceEmbedder } from './embed-speech.ts';
import type { SpeechEmbedding } from './voice-embedding.ts';

/** A sample measured for the registry: its embeddings and how much speech they came from. */
export interface MeasuredSample {
  embeddings: SpeechEmbedding[];
  /** Seconds of speech found (Silero VAD). */
  speechSeconds: number;
}

/**
 * Checks one enrollment sample and embeds it (docs/speakers.md, "Samples"): probed (2–30 s of recording),
 * decoded to 16 kHz mono, its speech found with Silero VAD (some speech, and at least
 * MIN_SAMPLE_SPEECH_SECONDS), then diarized with the built-in diarizer, count estimated: a sample in
 * which it finds two or more speakers is refused, since a voiceprint of two people would name both.
 * The audio is read from `mediaPath` and the decoded copy is written in `workDir`; the caller removes
 * both (the registry keeps only the embeddings).
 * @param which how the refusals name the sample, e.g. `sample 2`.
 * @returns the embeddings (built-in always, the neural model's when the embedder has one) and the seconds of speech.
 * @throws AppError `invalid_input` (param `samples`) for a sample too short, too long, without speech,
 *   with too little speech or with more than one speaker; `media_unreadable`, `media_no_audio` from
 *   probing and decoding; the errors of VAD and embedding.
 */
export async function measureVoiceSample(input: {
  mediaPath: string;
  workDir: string;
  which: string;
  vadModelPath: string;
  vadWorkers?: VadWorkerPool;
  embedder: VoiceEmbedder;
  /** Longest sample accepted, seconds; default MAX_SAMPLE_SECONDS (OpenAI's known_speaker_references: 10). */
  maxSeconds?: number;
  signal?: AbortSignal;
}): Promise<MeasuredSample> {
  const most = input.maxSeconds ?? MAX_SAMPLE_SECONDS;
  const refuse = (message: string) => new AppError('invalid_input', message, { param: 'samples' });
  const probe = await probeMedia(input.mediaPath, { signal: input.signal });
  const seconds = probe.durationSeconds;
  if (seconds < MIN_SAMPLE_SECONDS) {
    throw refuse(`The ${input.which} is too short: ${seconds.toFixed(1)} s; a sample must last ${MIN_SAMPLE_SECONDS}–${most} s.`);
  }
  if (seconds > most + 0.5) {
    throw refuse(
      `The ${input.which} is too long: ${seconds.toFixed(1)} s; a sample must last ${MIN_SAMPLE_SECONDS}–${most} s (cut out one speaker's part).`,
    );
  }
  const wavPath = join(input.workDir, 'sample.wav');
  await decodeToPcm(input.mediaPath, wavPath, { signal: input.signal, statedSeconds: seconds });
  const speech = await detectSpeech(wavPath, {
    modelPath: input.vadModelPath,
    ...(input.vadWorkers ? { workers: input.vadWorkers } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const found = speechSeconds(speech);
  if (found === 0) throw refuse(`The ${input.which} holds no speech: record the person speaking for a few seconds.`);
  if (found < MIN_SAMPLE_SPEECH_SECONDS) {
    throw refuse(
      `The ${input.which} is too short: it holds ${found.toFixed(1)} s of speech, and a voice needs at least ${MIN_SAMPLE_SPEECH_SECONDS} s per sample.`,
    );
  }
  const turns = await diarizeBuiltin({
    wavPath,
    speech,
    quietSpeech: [],
    speakers: null,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const speakers = new Set(turns.map((turn) => turn.speaker)).size;
  if (speakers > 1) {
    throw refuse(
      `The ${input.which} holds ${speakers} voices: a sample must hold one speaker only. Transcribe it with diarization and enroll a part where only this person speaks.`,
    );
  }
  const [embeddings] = await embedSpeechGroups(wavPath, [speech], input.embedder, input.signal);
  if (!embeddings || embeddings.length === 0) throw refuse(`The ${input.which} holds too little speech to measure the voice.`);
  return { embeddings, speechSeconds: Math.round(found * 1000) / 1000 };
}
