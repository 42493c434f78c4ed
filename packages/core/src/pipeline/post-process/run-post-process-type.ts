import { listSpeakers } from '../render/list-speakers.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import type { PromptJob } from './build-prompt-messages.ts';
import type { ChatSession } from './chat-session.ts';
import { condenseTranscript } from './condense-transcript.ts';
import { findChapters } from './find-chapters.ts';
import { formatTranscriptLines } from './format-transcript-lines.ts';
import { inferSpeakerNames } from './infer-speaker-names.ts';
import { transformTranscript } from './transform-transcript.ts';
import { translateSubtitles } from './translate-subtitles.ts';

/**
 * Runs one type on a transcript with speech, by its prompt's method (post-processing-prompts.ts).
 * `speaker_names` of a transcript without speaker labels (diarization did not run) is null
 * without a request: there is no label to name. Labels that are known voices' names (transcript.voices,
 * docs/speakers.md) are answered as they are, without asking the model; only the others are inferred.
 *
 * @returns a string for every type; for speaker_names a label → name map or null.
 * @throws AppError `post_processing_failed` whose message is the cause (the caller names the type).
 */
export async function runPostProcessType(session: ChatSession, job: PromptJob, transcript: Transcript): Promise<unknown> {
  const text = (style: 'timed' | 'plain') => formatTranscriptLines(transcript, style).map((line) => line.text);
  switch (job.prompt.method) {
    case 'condense':
      return condenseTranscript(session, job, text('timed'));
    case 'transform':
      return transformTranscript(session, job, text('plain'));
    case 'chapters':
      return findChapters(session, job, formatTranscriptLines(transcript, 'numbered'));
    case 'subtitles':
      return translateSubtitles(session, job, transcript);
    case 'speaker-names': {
      const labels = listSpeakers(transcript.segments.filter((segment) => segment.text.trim() !== ''));
      // Speakers named after the account's known voices keep those names as given: only the others are guessed.
      const known = new Set((transcript.voices ?? []).map((voice) => voice.label));
      const given = Object.fromEntries(labels.filter((label) => known.has(label)).map((label) => [label, label]));
      const unnamed = labels.filter((label) => !known.has(label));
      if (unnamed.length === 0) return labels.length === 0 ? null : given;
      const inferred = await inferSpeakerNames(session, job, unnamed, text('timed'));
      return inferred === null && Object.keys(given).length === 0 ? null : { ...given, ...inferred };
    }
  }
}
