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
 * without a request: there is no label to name.
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
      return labels.length === 0 ? null : inferSpeakerNames(session, job, labels, text('timed'));
    }
  }
}
