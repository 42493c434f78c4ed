import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fetchMedia } from '../../pipeline/fetch/fetch-media.ts';
import { findVoiceEmbedder } from '../../pipeline/voices/embed-speech.ts';
import { measureVoiceSample, type MeasuredSample } from '../../pipeline/voices/measure-voice-sample.ts';
import { newPredictionId } from '../predictions/new-prediction-id.ts';
import type { ServiceContext } from '../../service-context.ts';

/** A sample to enroll: a file already received (an upload), or a link or `data:` URI to fetch. */
export type VoiceSampleSource = { kind: 'file'; path: string } | { kind: 'link'; value: string };

/**
 * Fetches and measures each sample in turn (measureVoiceSample), in a work folder of its own under
 * DATA_DIR/work that is removed afterwards with everything in it (uploads included): only embeddings
 * leave this function. The first refused sample stops the others.
 * @returns one MeasuredSample per source, in order.
 * @throws AppError of fetchMedia (`media_too_large`, `upstream_refused`, `upstream_unreachable`,
 *   `address_not_allowed`; param renamed `samples`) and measureVoiceSample.
 */
export async function measureVoiceSamples(
  ctx: ServiceContext,
  sources: readonly VoiceSampleSource[],
  signal?: AbortSignal,
  options: { maxSeconds?: number; names?: readonly string[] } = {},
): Promise<MeasuredSample[]> {
  const workDir = join(ctx.config.dataDir, 'work', `voice-${newPredictionId()}`);
  await mkdir(workDir, { recursive: true });
  try {
    const embedder = await findVoiceEmbedder(ctx.config.modelsDir);
    const measured: MeasuredSample[] = [];
    for (const [index, source] of sources.entries()) {
      const which = options.names?.[index] ?? (sources.length === 1 ? 'sample' : `sample ${index + 1}`);
      const sampleDir = join(workDir, String(index));
      await mkdir(sampleDir, { recursive: true });
      let mediaPath = source.kind === 'file' ? source.path : join(sampleDir, 'source');
      if (source.kind === 'link') {
        await fetchMedia(source.value, mediaPath, {
          maxBytes: ctx.config.maxMediaBytes,
          timeoutMs: ctx.config.downloadTimeoutMs,
          allowPrivateNetwork: ctx.config.allowPrivateNetwork,
          ...(signal ? { signal } : {}),
        });
      }
      measured.push(
        await measureVoiceSample({
          mediaPath,
          workDir: sampleDir,
          which,
          vadModelPath: ctx.config.vadModelPath,
          ...(ctx.vadWorkers ? { vadWorkers: ctx.vadWorkers } : {}),
          embedder,
          ...(options.maxSeconds ? { maxSeconds: options.maxSeconds } : {}),
          ...(signal ? { signal } : {}),
        }),
      );
      mediaPath = '';
    }
    return measured;
  } finally {
    await rm(workDir, { recursive: true, force: true });
    await discardVoiceSamples(sources);
  }
}

/** Removes the received files among `sources` (a request refused before its samples were measured). */
export async function discardVoiceSamples(sources: readonly VoiceSampleSource[]): Promise<void> {
  await Promise.all(sources.map((source) => (source.kind === 'file' ? rm(source.path, { force: true }) : undefined)));
}
