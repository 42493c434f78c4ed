import { join } from 'node:path';
import { assignSpeakers } from './diarize/assign-speakers.ts';
import { QUIET_SPEECH_ONSET } from './diarize/add-quiet-speech.ts';
import { mergeChannelTranscripts } from './diarize/merge-channel-transcripts.ts';
import { splitStereoChannels } from './diarize/split-stereo-channels.ts';
import { decodeToPcm } from './decode/decode-to-pcm.ts';
import { assertRecordingLength } from './decode/recording-length-limit.ts';
import { claimWorkFolder } from '../platform/work/claim-work-folder.ts';
import { startStage, type StageClock } from '../platform/metrics/time-stage.ts';
import type { MediaProbe } from './decode/probe-media.ts';
import { resolveRecognitionProfile } from './recognize/recognition-profile.ts';
import { describeSpeech, transcribeRecording, type EarlySegment } from './recognize/transcribe-recording.ts';
import type { ServiceContext } from '../service-context.ts';
import type { Transcript, VadInterval } from '../contract/output/transcript-model.ts';
import type { PredictionInput } from '../contract/validation/prediction-input.ts';
import { recognitionSlotPriority } from './recognition-slot-priority.ts';
import { runInRecognitionSlot } from './run-in-recognition-slot.ts';
import { startDiarization, type DiarizationRun } from './start-diarization.ts';
import { restoreSourceTimes } from './restore-source-times.ts';
import { assessSegments, resolveFlagThresholds } from './recognize/assess-segments.ts';
import type { SpeechScores } from './vad/detect-speech.ts';
import type { StageLog } from './stage-log.ts';
import type { SpeakerTurn } from './diarize/speaker-turn.ts';
import { identifySpeakers, type KnownVoice } from './voices/identify-speakers.ts';
import { findVoiceEmbedder } from './voices/embed-speech.ts';

/**
 * Decodes a probed recording and runs VAD, recognition and diarization on it, bounded by the
 * process's recognition queue (RECOGNITION_CONCURRENCY); diarization starts once VAD is done and runs
 * while the engine recognises (start-diarization.ts). A stereo recording whose channels carry
 * different speakers is transcribed per channel and merged, each channel one speaker.
 * Every decode leaves out the middle of silences of 30 s or more (decode/cut-long-silences.ts), so what
 * is written and read afterwards follows the recording's sound, not its length (23 h of silence: 6 s);
 * the transcript's times are put back on the source's clock at the end (restoreSourceTimes). A stereo
 * recording whose channels are both silence from start to end ends after the channel decode, without
 * speech (no mix decoded, no recognition slot taken).
 * @throws AppError from decoding (`media_unreadable`, `media_no_audio`), recognition or diarization.
 */
export async function recognizeMedia(
  ctx: ServiceContext,
  input: { mediaPath: string; probe: MediaProbe; params: PredictionInput; workDir: string; knownVoices?: KnownVoiceRequest },
  log: StageLog,
  signal?: AbortSignal,
): Promise<Transcript> {
  assertRecordingLength(input.probe.durationSeconds); // before decoding: a header may claim days of audio
  await claimWorkFolder(input.workDir); // a start after a crash kills the decoders recorded here and removes the folder
  const statedSeconds = input.probe.durationSeconds; // decoding stops not far past it: a header that understates is refused
  const decoding = startStage(ctx.metrics, 'decode'); // a stereo check that does not split counts as decoding too
  if (input.probe.channels === 2 && input.params.speakers !== 1) {
    const split = await splitStereoChannels({
      mediaPath: input.mediaPath,
      channels: 2,
      workDir: input.workDir,
      statedSeconds,
      cutSilences: true,
      signal,
    });
    if (!split.separate && split.silentSeconds !== null) {
      // Both channels are silence from start to end: no mix to decode, no VAD to run, nothing to say.
      await log.write(`decoded ${split.silentSeconds.toFixed(1)} s of audio (${input.probe.formatName}): silence from start to end`, {
        seconds: decoding.done(),
      });
      await log.write(describeSpeech([]));
      return silentTranscript(split.silentSeconds, input.probe.formatName);
    }
    if (split.separate) {
      await log.write('stereo: a different speaker on each channel; channels transcribed separately', { seconds: decoding.done() });
      const channel = async (wavPath: string) =>
        restoreSourceTimes(
          await recognizeWav(ctx, { ...input, wavPath, durationSeconds: split.durationSeconds }, log, signal, false),
          split.cuts,
          split.sourceSeconds,
        );
      return mergeChannelTranscripts(await channel(split.left), await channel(split.right));
    }
  }
  const wavPath = join(input.workDir, 'audio.wav');
  const { audioFilter } = resolveRecognitionProfile(input.params.domain);
  const decoded = await decodeToPcm(input.mediaPath, wavPath, {
    signal,
    statedSeconds,
    cutSilences: true,
    ...(audioFilter ? { audioFilter } : {}),
  });
  await log.write(describeDecoded(decoded.sourceSeconds, decoded.durationSeconds, input.probe.formatName), { seconds: decoding.done() });
  const transcript = await recognizeWav(ctx, { ...input, wavPath, durationSeconds: decoded.durationSeconds }, log, signal, true);
  return restoreSourceTimes(transcript, decoded.cuts, decoded.sourceSeconds);
}

/** The transcript of a recording without speech (spec 2.3.6), as transcribeRecording gives it. */
function silentTranscript(lengthSeconds: number, formatName: string): Transcript {
  return { source: { length: lengthSeconds, format: formatName }, segments: [], vad: [], language: null, languages: [], speakers: [] };
}

/** `decoded 11.0 s of audio (wav)`, and what was cut: `…; 83994.0 s of silence left out`. */
function describeDecoded(sourceSeconds: number, keptSeconds: number, formatName: string): string {
  const line = `decoded ${sourceSeconds.toFixed(1)} s of audio (${formatName})`;
  const cut = sourceSeconds - keptSeconds;
  return cut > 0 ? `${line}; ${cut.toFixed(1)} s of silence left out` : line;
}

interface WavJob {
  wavPath: string;
  durationSeconds: number;
  probe: MediaProbe;
  params: PredictionInput;
  knownVoices?: KnownVoiceRequest;
}

/** Voices of the registry to recognise in the recording (docs/speakers.md), and the similarity they need (null: the default). */
export interface KnownVoiceRequest {
  voices: KnownVoice[];
  threshold: number | null;
}

function recognizeWav(
  ctx: ServiceContext,
  job: WavJob,
  log: StageLog,
  signal: AbortSignal | undefined,
  diarize: boolean,
): Promise<Transcript> {
  const { params } = job;
  const flagThresholds = resolveFlagThresholds(ctx.config.flagThresholds, ctx.engine);
  return runInRecognitionSlot(
    ctx.recognitionQueue,
    async () => {
      signal?.throwIfAborted(); // canceled while waiting for its turn: no recognition
      const early: { diarization?: DiarizationRun; clock?: StageClock; scores?: SpeechScores } = {};
      const startDiarizing = (speech: VadInterval[], quietSpeech: VadInterval[], scores: SpeechScores) => {
        early.scores = scores;
        const clock = (early.clock = startStage(ctx.metrics, 'diarization'));
        early.diarization = startDiarization({
          wavPath: job.wavPath,
          speech,
          quietSpeech,
          speakers: params.speakers,
          domain: params.domain,
          modelsDir: ctx.config.modelsDir,
          signal,
          log: (line) => log.note(line),
        });
        early.diarization.turns.then(
          () => clock.done(),
          () => {},
        ); // its own time: it usually ends before recognition
      };
      try {
        const transcript = await transcribeRecording({
          wavPath: job.wavPath,
          durationSeconds: job.durationSeconds,
          formatName: job.probe.formatName,
          engine: ctx.engine,
          vadModelPath: ctx.config.vadModelPath,
          flagThresholds,
          ...(ctx.vadWorkers ? { vadWorkers: ctx.vadWorkers } : {}),
          language: params.language,
          prompt: params.prompt,
          hotwords: params.hotwords,
          domain: params.domain,
          efficiency: params.efficiency,
          multilingual: params.multilingual,
          ...(params.task === 'translate' ? { task: 'translate' as const } : {}),
          signal,
          metrics: ctx.metrics,
          onStage: (line, fields) => log.note(line, fields), // progress only: a line lost in a database outage is dropped
          ...(log.segment ? { onSegment: (segment: EarlySegment) => log.segment?.(segment) } : {}),
          ...(diarize ? { onSpeech: startDiarizing, quietSpeechThreshold: QUIET_SPEECH_ONSET } : {}),
        });
        if (!early.diarization || !early.clock) return transcript;
        const identify =
          job.knownVoices && job.knownVoices.voices.length > 0 ? { ...job.knownVoices, wavPath: job.wavPath, ctx, signal } : null;
        const labelled = await labelSpeakers(transcript, early.diarization, early.clock, log, identify);
        // A segment split at a speaker change is measured and flagged again as the pieces it became.
        return labelled.segments.length === transcript.segments.length
          ? labelled
          : {
              ...labelled,
              segments: assessSegments(labelled.segments, {
                scores: early.scores ?? null,
                speech: labelled.vad,
                thresholds: flagThresholds,
              }),
            };
      } finally {
        early.diarization?.cancel(); // recognition failed or found no words: stop diarizing
      }
    },
    ctx.stopping,
    recognitionSlotPriority(job.durationSeconds),
  );
}

/**
 * Diarization for every engine, started as soon as VAD was done and run while the engine
 * recognised (startDiarization); its error fails the prediction as before, after recognition.
 */
async function labelSpeakers(
  transcript: Transcript,
  diarization: DiarizationRun,
  clock: StageClock,
  log: StageLog,
  identify: (KnownVoiceRequest & { wavPath: string; ctx: ServiceContext; signal: AbortSignal | undefined }) | null,
): Promise<Transcript> {
  if (transcript.segments.length === 0) return transcript;
  const turns = await diarization.turns;
  if (identify) return nameSpeakers(transcript, turns, clock, log, identify);
  const labelled = assignSpeakers(transcript, turns);
  await log.write(`diarized: ${labelled.speakers.length} speaker${labelled.speakers.length === 1 ? '' : 's'}`, { seconds: clock.done() });
  return labelled;
}

/**
 * labelSpeakers with known voices: the clusters are matched to the voices (identifySpeakers: exclusive,
 * thresholded) and the matched labels take the voices' names; `voices` lists each named label's voice
 * id and similarity (json and json2 show it as `speaker_voices`).
 */
async function nameSpeakers(
  transcript: Transcript,
  turns: SpeakerTurn[],
  clock: StageClock,
  log: StageLog,
  identify: KnownVoiceRequest & { wavPath: string; ctx: ServiceContext; signal: AbortSignal | undefined },
): Promise<Transcript> {
  const found = await identifySpeakers({
    wavPath: identify.wavPath,
    turns,
    voices: identify.voices,
    embedder: await findVoiceEmbedder(identify.ctx.config.modelsDir),
    threshold: identify.threshold,
    ...(identify.signal ? { signal: identify.signal } : {}),
    log: (line) => log.note(line),
  });
  const labelled = assignSpeakers(transcript, turns, found.names);
  const present = new Set(labelled.speakers.map((speaker) => speaker.label));
  const voices = found.matches
    .filter((match) => present.has(match.name))
    .map((match) => ({ label: match.name, voiceId: match.voiceId, similarity: match.similarity }));
  await log.write(
    `diarized: ${labelled.speakers.length} speaker${labelled.speakers.length === 1 ? '' : 's'}; ${voices.length} known voice${voices.length === 1 ? '' : 's'} recognised (similarity ≥ ${found.threshold})`,
    { seconds: clock.done() },
  );
  return { ...labelled, voices };
}
