import { join } from 'node:path';
import { decodeToPcm } from '../media/decode-to-pcm.ts';
import type { MediaProbe } from '../media/probe-media.ts';
import { resolveRecognitionProfile } from '../recognition/recognition-profile.ts';
import { transcribeRecording } from '../recognition/transcribe-recording.ts';
import type { ServiceContext } from '../service-context.ts';
import type { Transcript } from '../transcript/transcript-model.ts';
import type { PredictionInput } from '../validation/prediction-input.ts';

/**
 * Decodes a probed recording to 16 kHz mono PCM in `workDir` and runs VAD and recognition on it,
 * bounded by the process's recognition queue (RECOGNITION_CONCURRENCY).
 * @throws AppError from decoding (`media_unreadable`, `media_no_audio`) or recognition.
 */
export async function recognizeMedia(
  ctx: ServiceContext,
  input: { mediaPath: string; probe: MediaProbe; params: PredictionInput; workDir: string },
  log: (line: string) => Promise<void>,
  signal?: AbortSignal,
): Promise<Transcript> {
  const wavPath = join(input.workDir, 'audio.wav');
  const { audioFilter } = resolveRecognitionProfile(input.params.domain);
  const decoded = await decodeToPcm(input.mediaPath, wavPath, { signal, ...(audioFilter ? { audioFilter } : {}) });
  await log(`decoded ${decoded.durationSeconds.toFixed(1)} s of audio (${input.probe.formatName})`);
  const { params } = input;
  return ctx.recognitionQueue.add(
    () => {
      signal?.throwIfAborted(); // canceled while waiting for its turn: no recognition
      return transcribeRecording({
        wavPath,
        durationSeconds: decoded.durationSeconds,
        formatName: input.probe.formatName,
        engine: ctx.engine,
        vadModelPath: ctx.config.vadModelPath,
        language: params.language,
        prompt: params.prompt,
        hotwords: params.hotwords,
        domain: params.domain,
        efficiency: params.efficiency,
        signal,
        onStage: (line) => void log(line).catch(() => {}), // a progress line lost in a database outage must not crash the process
      });
    },
    { throwOnTimeout: true },
  );
}
