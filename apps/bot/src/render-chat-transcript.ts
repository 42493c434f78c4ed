import { applyOutputTransformers, type BotOutputFormat, type Transcript } from '@transcribe/core';
import type { Translate } from './bot-i18n.ts';
import { asChatText, type ChatText, type TextRange } from './chat-text.ts';

/**
 * The transcript as the user chose to get it (in /settings): `messages` plain text in chat
 * (when long, a `<name>.txt` file with one line per segment), `txt` a text file with time labels
 * (`<name>_timed.txt`, so the two never share a name), `srt` subtitles (spec 2.3.5).
 * Speaker labels appear only when the transcript has more than one speaker. `baseName` names the
 * file; captions are in the reader's language (`t`). Doubtful passages (segments with flags,
 * docs/formats.md "Flags") are shown in italics in chat and followed by ` (?)` in the text file, with
 * a note (`doubtful-note`) after the text saying what that means (docs/bot.md).
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
  const doubtful = doubtfulLines(transcript, lines.length);
  if (!doubtful.includes(true)) return asChatText(lines.join(speakers ? '\n' : ' '), `${baseName}.txt`, t, `${lines.join('\n')}\n`);
  const separator = speakers ? '\n' : ' ';
  const italics: TextRange[] = [];
  let text = '';
  lines.forEach((line, index) => {
    if (index > 0) text += separator;
    if (doubtful[index]) italics.push({ offset: text.length, length: line.length });
    text += line;
  });
  const note = t('doubtful-note');
  const file = `${lines.map((line, index) => (doubtful[index] ? `${line} (?)` : line)).join('\n')}\n\n(?) ${note}\n`;
  return asChatText(`${text}\n\n${note}`, `${baseName}.txt`, t, file, italics);
}

/**
 * Which of the text format's lines (one per segment with text, in order) come from a flagged
 * segment; all false when the count does not match (then nothing is marked rather than the wrong line).
 */
function doubtfulLines(transcript: Transcript, lineCount: number): boolean[] {
  const spoken = transcript.segments.filter((segment) => segment.text.replace(/\s+/g, ' ').trim() !== '');
  if (spoken.length !== lineCount) return new Array<boolean>(lineCount).fill(false);
  return spoken.map((segment) => (segment.flags?.length ?? 0) > 0);
}

/** The name of the transcript with time labels: `voice` → `voice_timed.txt`. */
export function timedTextName(baseName: string): string {
  return `${baseName}_timed.txt`;
}

/** True when the transcript holds no recognised words (spec 2.3.6: a recording without speech). */
export function isEmptyTranscript(transcript: Transcript): boolean {
  return transcript.segments.every((segment) => segment.text.trim() === '');
}
