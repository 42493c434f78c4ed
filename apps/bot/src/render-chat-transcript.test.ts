import { describe, expect, it } from 'vitest';
import type { Transcript, TranscriptSegment } from '@transcribe/core';
import { createBotI18n, translatorFor } from './bot-i18n.ts';
import { asChatText } from './chat-text.ts';
import { renderChatTranscript } from './render-chat-transcript.ts';

const i18n = createBotI18n();
const en = translatorFor(i18n, 'en');
const ru = translatorFor(i18n, 'ru');

const segment = (text: string, start: number, flags: TranscriptSegment['flags']): TranscriptSegment => ({
  start,
  end: start + 2,
  text,
  speaker: null,
  language: 'en',
  words: [],
  flags,
});

const TRANSCRIPT: Transcript = {
  source: { length: 20, format: 'wav' },
  segments: [segment('We start at nine.', 0, []), segment('Thank you.', 5, ['low_logprob', 'no_speech']), segment('Then lunch.', 9, [])],
  vad: [{ start: 0, end: 11 }],
  language: 'en',
  languages: [],
  speakers: [],
};

describe('renderChatTranscript: doubtful passages', () => {
  it('should put a flagged segment in italics in chat, with the note after the text', () => {
    const chat = renderChatTranscript(TRANSCRIPT, 'messages', 'voice', en);
    expect(chat.kind).toBe('messages');
    if (chat.kind !== 'messages') return;
    const [part] = chat.parts;
    expect(part!.startsWith('We start at nine. Thank you. Then lunch.\n\n')).toBe(true);
    expect(part).toContain(en('doubtful-note'));
    const [italic] = chat.italics![0]!;
    expect(part!.slice(italic!.offset, italic!.offset + italic!.length)).toBe('Thank you.');
    expect(chat.italics![0]).toHaveLength(1);
  });

  it('should say it in the reader’s language, and mark nothing when no segment is flagged', () => {
    const chat = renderChatTranscript(TRANSCRIPT, 'messages', 'voice', ru);
    expect(chat.kind === 'messages' && chat.parts[0]).toContain('Курсивом');
    const clean = { ...TRANSCRIPT, segments: TRANSCRIPT.segments.map((s) => ({ ...s, flags: [] })) };
    const plain = renderChatTranscript(clean, 'messages', 'voice', en);
    expect(plain).toEqual({ kind: 'messages', parts: ['We start at nine. Thank you. Then lunch.'] });
  });

  it('should mark the line in the file of a long transcript with (?) and the note', () => {
    const long = { ...TRANSCRIPT, segments: [...TRANSCRIPT.segments, segment('word '.repeat(900).trim(), 12, [])] };
    const chat = renderChatTranscript(long, 'messages', 'voice', en);
    expect(chat.kind).toBe('document');
    if (chat.kind !== 'document') return;
    const lines = String(chat.content).split('\n');
    expect(lines[1]).toBe('Thank you. (?)');
    expect(lines[0]).toBe('We start at nine.');
    expect(String(chat.content)).toContain(`(?) ${en('doubtful-note')}`);
  });
});

describe('asChatText: italics', () => {
  it('should keep the ranges on the trimmed message text, and send none with a document', () => {
    const chat = asChatText('  one two three ', 'x.txt', en, 'one two three', [{ offset: 6, length: 3 }]);
    expect(chat).toEqual({ kind: 'messages', parts: ['one two three'], italics: [[{ offset: 4, length: 3 }]] });
    const long = asChatText('x '.repeat(3000), 'x.txt', en, 'x', [{ offset: 0, length: 1 }]);
    expect(long.kind).toBe('document');
  });
});
