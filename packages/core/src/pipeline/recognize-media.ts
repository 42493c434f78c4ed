import { join } from 'node:path';
import { assignSpeakers } from './diarize/assign-speakers.ts';
import { QUIET_SPEECH_ONSET } from './diarize/find-quiet-speech.ts';
import { mergeChannelTranscripts } from './diarize/merge-channel-transcripts.ts';
import { splitStereoChannels } from './diarize/split-stereo-channels.ts';
import { decodeToPcm } from './decode/decode-to-pcm.ts';
import { assertRecordingLength } from './decode/recording-length-limit.ts';
import { claimWorkFolder } from '../platform/work/claim-work-folder.ts';
import { startStage, type StageClock } from '../platform/metrics/time-stage.ts';
import type { MediaProbe } from './decode/probe-media.ts';
import { resolveRecognitionProfile } from './recognize/recognition-profile.ts';
import { transcribeRecording } from './recognize/transcribe-recording.ts';
import type { ServiceContext } from '../service-context.ts';
import type { Transcript, VadInterval } from './render/transcript-model.ts';
import type { PredictionInput } from '../contract/validation/prediction-input.ts';
import { recognitionSlotPriority } from './recognition-slot-priority.ts';
import { runInRecognitionSlot } from './run-in-recognition-slot.ts';
import { startDiarization, type DiarizationRun } from './start-diarization.ts';

/** A line of the prediction's logs; `fields` (e.g. a stage's `seconds`) go to the structured log only. */
type Log = (line: string, fields?: { seconds: number }) => Promise<void>;

/**
 * Decodes a probed recording and runs VAD, recognition and diarization on it, bounded by the
 * process's recognition queue (RECOGNITION_CONCURRENCY); diarization starts once VAD is done and runs
 * while the engine recognises (start-diarization.ts). A stereo recording whose channels carry
 * different speakers is transcribed per channel and merged, each channel one speaker.
 * @throws AppError from decoding (`media_unreadable`, `media_no_audio`), recognition or diarization.
 */
export async function recognizeMedia(
  ctx: ServiceContext,
  input: { mediaPath: string; probe: MediaProbe; params: PredictionInput; workDir: string },
  log: Log,
  signal?: AbortSignal,
): Promise<Transcript> {
  assertRecordingLength(input.probe.durationSeconds); // before decoding: a header may claim days of audio
  await claimWorkFolder(input.workDir); // a start after a crash kills the decoders recorded here and removes the folder
  const statedSeconds = input.probe.durationSeconds; // decoding stops not far past it: a header that understates is refused
  const decoding = startStage(ctx.metrics, 'decode'); // a stereo check that does not split counts as decoding too
  if (input.probe.channels === 2 && input.params.speakers !== 1) {
    const split = await splitStereoChannels({ mediaPath: input.mediaPath, channels: 2, workDir: input.workDir, statedSeconds, signal });
    if (split.separate) {
      await log('stereo: a different speaker on each channel; channels transcribed separately', { seconds: decoding.done() });
      const channel = (wavPath: string) =>
        recognizeWav(ctx, { ...input, wavPath, durationSeconds: split.durationSeconds }, log, signal, false);
      return mergeChannelTranscripts(await channel(split.left), await channel(split.right));
    }
  }
  const wavPath = join(input.workDir, 'audio.wav');
  const { audioFilter } = resolveRecognitionProfile(input.params.domain);
  const decoded = await decodeToPcm(input.mediaPath, wavPath, { signal, statedSeconds, ...(audioFilter ? { audioFilter } : {}) });
  await log(`decoded ${decoded.durationSeconds.toFixed(1)} s of audio (${input.probe.formatName})`, { seconds: decoding.done() });
  return recognizeWav(ctx, { ...input, wavPath, durationSeconds: decoded.durationSeconds }, log, signal, true);
}

interface WavJob {
  wavPath: string;
  durationSeconds: number;
  probe: MediaProbe;
  params: PredictionInput;
}

function recognizeWav(ctx: ServiceContext, job: WavJob, log: Log, signal: AbortSignal | undefined, diarize: boolean): Promise<Transcript> {
  const { params } = job;
  return runInRecognitionSlot(
    ctx.recognitionQueue,
    async () => {
      signal?.throwIfAborted(); // canceled while waiting for its turn: no recognition
      const early: { diarization?: DiarizationRun; clock?: StageClock } = {};
      const startDiarizing = (speech: VadInterval[], quietSpeech: VadInterval[]) => {
        const clock = (early.clock = startStage(ctx.metrics, 'diarization'));
        early.diarization = startDiarization({
          wavPath: job.wavPath,
          speech,
          quietSpeech,
          speakers: params.speakers,
          domain: params.domain,
          modelsDir: ctx.config.modelsDir,
          signal,
          log: (line) => void log(line).catch(() => {}),
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
          onStage: (line, fields) => void log(line, fields).catch(() => {}), // a progress line lost in a database outage must not crash the process
          ...(diarize ? { onSpeech: startDiarizing, quietSpeechThreshold: QUIET_SPEECH_ONSET } : {}),
        });
        return early.diarization && early.clock ? await labelSpeakers(transcript, early.diarization, early.clock, log) : transcript;
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
async function labelSpeakers(transcript: Transcript, diarization: DiarizationRun, clock: StageClock, log: Log): Promise<Transcript> {
  if (transcript.segments.length === 0) return transcript;
  const labelled = assignSpeakers(transcript, await diarization.turns);
  await log(`diarized: ${labelled.speakers.length} speaker${labelled.speakers.length === 1 ? '' : 's'}`, { seconds: clock.done() });
  return labelled;
}
