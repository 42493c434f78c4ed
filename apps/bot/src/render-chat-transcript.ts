import { applyOutputTransformers, type BotOutputFormat, type Transcript } from '@transcribe/core';
import type { Translate } from './bot-i18n.ts';
import { asChatText, type ChatText } from './chat-text.ts';

/**
 * The transcript as the user chose to get it (in /settings): `messages` plain text in chat
 * (when long, a `<name>.txt` file with one line per segment), `txt` a text file with time labels
 * (`<name>_timed.txt`, so the two never share a name), `srt` subtitles (spec 2.3.5).
 * Speaker labels appear only when the transcript has more than one speaker. `baseName` names the
 * file; captions are in the reader's language (`t`).
 */
export function renderChatTranscript(transcript: Transcript, format: BotOutputFormat, baseName: string, t: Translate): ChatText {
  // Labels only help when there is more than one speaker; one voice reads as running text.
  const speakers = new Set(transcript.segments.map((segment) => segment.speaker).filter((label) => label !== null)).size > 1;
  const render = (output: 'text' | 'srt', timestamps: boolean): string =>
    String(
      applyOutputTransformers({
        model: transcript,
        format: output,
        postProcess: null,
        results: {},
        transformer: output === 'srt' ? null : { kind: 'text', speakers, timestamps, pauses: false },
      }),
    );
  if (format === 'srt') return { kind: 'document', fileName: `${baseName}.srt`, content: render('srt', true), caption: t('caption-srt') };
  if (format === 'txt')
    return { kind: 'document', fileName: timedTextName(baseName), content: render('text', true), caption: t('caption-txt') };
  const lines = render('text', false)
    .split('\n')
    .filter((line) => line.trim() !== '');
  // In chat the lines read as running text (one line per turn with speakers); the file keeps a line per segment.
  return asChatText(lines.join(speakers ? '\n' : ' '), `${baseName}.txt`, t, `${lines.join('\n')}\n`);
}

/** The name of the transcript with time labels: `voice` → `voice_timed.txt`. */
export function timedTextName(baseName: string): string {
  return `${baseName}_timed.txt`;
}

/** True when the transcript holds no recognised words (spec 2.3.6: a recording without speech). */
export function isEmptyTranscript(transcript: Transcript): boolean {
  return transcript.segments.every((segment) => segment.text.trim() === '');
}
