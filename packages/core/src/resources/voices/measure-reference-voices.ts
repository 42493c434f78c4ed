import type { KnownVoice } from '../../pipeline/voices/identify-speakers.ts';
import { addToEmbeddings } from '../../pipeline/voices/voice-embedding.ts';
import type { ServiceContext } from '../../service-context.ts';
import { measureVoiceSamples } from './measure-voice-samples.ts';

/** Longest reference clip of OpenAI's `known_speaker_references[]`, seconds ("between 2 and 10 seconds"). */
export const MAX_REFERENCE_SECONDS = 10;

/**
 * Voices given with one request instead of the registry (OpenAI's `known_speaker_names[]` and
 * `known_speaker_references[]`, docs/openai-api.md): each reference checked and embedded as an
 * enrollment sample (measureVoiceSamples, 2–10 s here), its audio removed at once. They are never
 * added to the registry; their embeddings live in that prediction's parameters only.
 * @param references name and `data:` URL of each voice, at most 4 (checked by the caller).
 * @returns one KnownVoice per reference, ids `reference_1`…
 * @throws the errors of measureVoiceSamples (`invalid_input` naming the reference).
 */
export async function measureReferenceVoices(
  ctx: ServiceContext,
  references: readonly { name: string; dataUrl: string }[],
  signal?: AbortSignal,
): Promise<KnownVoice[]> {
  const measured = await measureVoiceSamples(
    ctx,
    references.map((reference) => ({ kind: 'link', value: reference.dataUrl })),
    signal,
    {
      maxSeconds: MAX_REFERENCE_SECONDS,
      names: references.map((reference) => `known_speaker_references[] of ${JSON.stringify(reference.name.slice(0, 40))}`),
    },
  );
  return references.map((reference, i) => ({
    id: `reference_${i + 1}`,
    name: reference.name,
    embeddings: addToEmbeddings({}, measured[i]!.embeddings),
  }));
}
