import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getBotUserSettings, predictions } from '@transcribe/core';
import {
  replyLikeAModel,
  startChatServer,
  startTranscriptionServer,
  testLlmConfig,
  type ChatServer,
  type TranscriptionServer,
} from '@transcribe/core/testing';
import { FAKE_BOT_USER, testUser, type FakeBotApi, type RecordedCall } from './test-support/fake-bot-api.ts';
import { AUDIO_DIR, startTestBot, toVoiceOgg, type TestBot } from './test-support/start-test-bot.ts';
import { messageUpdate, pressButton, voiceUpdate } from './test-support/telegram-updates.ts';

const WORDS = ['запись', 'встреча', 'проект', 'сроки', 'бюджет', 'команда', 'клиент', 'отчёт', 'задача', 'решение', 'вопрос', 'план'];

/** About 6,500 characters of varied Russian sentences (no repeats the recogniser would collapse). */
function longRussianText(): string {
  const sentences: string[] = [];
  let seed = 7;
  for (let index = 0; index < 130; index += 1) {
    const words = Array.from({ length: 6 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return WORDS[seed % WORDS.length];
    });
    sentences.push(`Пункт ${index + 1}: ${words.join(' ')}.`);
  }
  return sentences.join(' ');
}

const LONG_TEXT = longRussianText();

function repliesTo(call: RecordedCall, messageId: number): boolean {
  return (call.payload.reply_parameters as { message_id?: number } | undefined)?.message_id === messageId;
}

function buttonTexts(fake: FakeBotApi, messageId: number): string[] {
  const markup = fake.messages.get(messageId)?.reply_markup as { inline_keyboard: { text: string }[][] } | undefined;
  return markup?.inline_keyboard.flat().map((button) => button.text) ?? [];
}

/** A string of a PDF's document information (`/Title 13 0 R` → `13 0 obj (…)`, UTF-16BE after a BOM), as pdfkit writes it. */
function pdfString(pdf: Buffer, key: string): string | undefined {
  const text = pdf.toString('latin1');
  const ref = new RegExp(`/${key} (\\d+) 0 R`).exec(text)?.[1];
  const literal = ref === undefined ? undefined : new RegExp(`\\n${ref} 0 obj\\n\\(([\\s\\S]*?)\\)\\nendobj`).exec(text)?.[1];
  if (literal === undefined) return undefined;
  const bytes = Buffer.from(literal.replace(/\\([()\\])/g, '$1'), 'latin1');
  return bytes[0] === 0xfe && bytes[1] === 0xff ? Buffer.from(bytes.subarray(2)).swap16().toString('utf16le') : bytes.toString('latin1');
}

function idOf(call: RecordedCall): number {
  return (call.result as { message_id: number }).message_id;
}

describe('transcripts people can use: long ones as files, formats, typed languages, per-recording re-runs', () => {
  let asr: TranscriptionServer;
  let chat: ChatServer;
  let t: TestBot;
  const user = { ...testUser(9101), language_code: 'uk' };
  let voiceMessageId: number;
  let documentId: number;

  beforeAll(async () => {
    // A recognition server that answers every piece of audio with the same long text, split into 5 segments.
    asr = await startTranscriptionServer({
      script: (request) => {
        const step = request.durationSeconds / 5;
        const pieces = LONG_TEXT.match(/(?:[^.]+\.){26}/g) ?? [LONG_TEXT];
        const segments = pieces.map((text, id) => ({
          id,
          start: id * step,
          end: (id + 1) * step,
          text: ` ${text.trim()}`,
          avg_logprob: -0.2,
        }));
        return { body: { task: 'transcribe', language: 'russian', duration: request.durationSeconds, text: LONG_TEXT, segments } };
      },
    });
    chat = await startChatServer(replyLikeAModel);
    t = await startTestBot({
      kind: 'pglite',
      env: { RECOGNITION_ENGINE: 'openai-compatible', ASR_BASE_URL: asr.baseUrl, ASR_MODEL: 'whisper-1', LLM_BASE_URL: chat.baseUrl },
      bot: { llm: testLlmConfig(chat.baseUrl) },
    });
    t.fake.addFile('long', { path: await toVoiceOgg(join(AUDIO_DIR, 'librispeech-test-clean/1089-134686-0001.wav'), t.workDir) });
  });

  afterAll(async () => {
    await t?.stop();
    await chat?.close();
    await asr?.close();
  });

  it('should send a transcript longer than one message as a short preview plus the whole text as a .txt document', async () => {
    const update = voiceUpdate(user, 'long');
    voiceMessageId = update.message.message_id;
    t.fake.pushUpdate(update);
    const document = await t.fake.waitForCall((c) => c.method === 'sendDocument' && repliesTo(c, voiceMessageId), 90_000);
    documentId = idOf(document);
    const file = Object.values(document.files)[0]!;
    expect(file.filename).toBe('voice.txt');
    const whole = file.content.toString('utf8');
    expect(whole.length).toBeGreaterThan(4096);
    expect(whole).toContain('Пункт 1:');
    expect(whole).toContain('Пункт 130:');
    // One line per segment, not one wall of a line (besides the note on doubtful lines that flagged
    // segments bring: a blank line, then `(?) …`); and a name apart from the timed text's.
    expect(
      whole
        .trim()
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('(?) ')),
    ).toHaveLength(5);
    expect(String(document.payload.caption)).toMatch(/^The whole text \([\d,]+ characters\) is in this file\.$/);
    const preview = t.fake.calls.find(
      (c) => c.method === 'sendMessage' && repliesTo(c, voiceMessageId) && String(c.payload.text).startsWith('Пункт 1:'),
    );
    expect(preview).toBeDefined();
    expect(String(preview!.payload.text).length).toBeLessThan(700);
    expect(String(preview!.payload.text)).toMatch(/ …$/);
    expect(t.fake.calls.indexOf(preview!)).toBeLessThan(t.fake.calls.indexOf(document));
    // No wall of messages: only the status message, the preview and the document answer the recording.
    expect(t.fake.calls.filter((c) => c.method === 'sendMessage' && repliesTo(c, voiceMessageId))).toHaveLength(2);
    expect(buttonTexts(t.fake, documentId)).toEqual([
      'Summary',
      'Action items',
      'Key facts',
      'Translation…',
      'More…',
      '📄 .txt',
      '📄 .srt',
      '📄 .docx',
      '📄 .pdf',
      '👥 Speakers…',
    ]);
  });

  it('should send .pdf (with a font that covers Cyrillic and a heading) and .docx and timed .txt files from the buttons', async () => {
    const from = t.fake.calls.length;
    pressButton(t.fake, user, documentId, /\.txt$/);
    const timed = await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= from && c.method === 'sendDocument' && Object.values(c.files)[0]?.filename === 'voice_timed.txt',
      30_000,
    );
    expect(Object.values(timed.files)[0]!.content.toString('utf8')).toMatch(/^\[?\d/);
    pressButton(t.fake, user, documentId, /\.pdf$/);
    const pdf = await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= from && c.method === 'sendDocument' && Object.values(c.files)[0]?.filename === 'voice.pdf',
      30_000,
    );
    const pdfBytes = Object.values(pdf.files)[0]!.content;
    expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfBytes.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/);
    expect(pdfBytes.toString('latin1')).not.toMatch(/\/BaseFont \/Helvetica/);
    // The heading names the recording, when it was sent and its length (also the document's Title and Subject).
    expect(pdfString(pdfBytes, 'Title')).toBe('Voice message');
    expect(pdfString(pdfBytes, 'Subject')).toMatch(/^Sent \w+ \d{1,2}, \d{4} at \d\d:\d\d UTC · \d+:\d\d$/);
    pressButton(t.fake, user, documentId, /\.docx$/);
    const docx = await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= from && c.method === 'sendDocument' && Object.values(c.files)[0]?.filename === 'voice.docx',
      30_000,
    );
    expect(Object.values(docx.files)[0]!.content.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('should take a typed target language ("deutsch" → German), with the person’s language and recent choices first', async () => {
    const from = t.fake.calls.length;
    pressButton(t.fake, user, documentId, /^Translation…$/);
    await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= from && c.method === 'editMessageReplyMarkup' && JSON.stringify(c.payload).includes('pt:'),
    );
    expect(buttonTexts(t.fake, documentId)[0]).toBe('Ukrainian'); // Telegram language_code uk
    t.fake.pushUpdate(messageUpdate(user, { text: 'deutsch' }));
    await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= from && c.method === 'editMessageText' && c.payload.text === '✅ Translation (German)',
      30_000,
    );
    expect(chat.requests.some((request) => request.system.includes('German'))).toBe(true);
    await t.fake.waitForCall(
      (c) =>
        t.fake.calls.indexOf(c) >= from &&
        c.method === 'editMessageReplyMarkup' &&
        c.payload.message_id === documentId &&
        JSON.stringify(c.payload).includes('More…'),
    );
    // Unknown words get a hint while the picker is open; the next picker shows German right after Ukrainian.
    const again = t.fake.calls.length;
    pressButton(t.fake, user, documentId, /^Translation…$/);
    await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= again && c.method === 'editMessageReplyMarkup' && JSON.stringify(c.payload).includes('pt:'),
    );
    expect(buttonTexts(t.fake, documentId).slice(0, 4)).toEqual(['German', 'Ukrainian', 'English', 'Spanish']);
    t.fake.pushUpdate(messageUpdate(user, { text: 'klingonish' }));
    await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= again && c.method === 'sendMessage' && /^I don't know that language/.test(String(c.payload.text)),
    );
    const back = t.fake.calls.length;
    pressButton(t.fake, user, documentId, /^◀ Back$/);
    await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= back && c.method === 'editMessageReplyMarkup' && JSON.stringify(c.payload).includes('More…'),
    );
  });

  it('should re-run one recording with 2 speakers without changing the person’s defaults', async () => {
    const db = t.service.service.ctx.database.db;
    const before = await getBotUserSettings(db, String(user.id));
    expect(before.speakers).toBeNull();
    const from = t.fake.calls.length;
    pressButton(t.fake, user, documentId, /Speakers…/);
    await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= from && c.method === 'editMessageReplyMarkup' && JSON.stringify(c.payload).includes('pr:'),
    );
    pressButton(t.fake, user, documentId, /^Re-run with 2 speakers$/);
    const answer = await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= from && c.method === 'answerCallbackQuery' && /again/.test(String(c.payload.text)),
    );
    expect(answer.payload.text).toBe('Transcribing again with 2 speakers…');
    // A new status message answers the same recording, and a second prediction asks for 2 speakers.
    await t.fake.waitForCall((c) => t.fake.calls.indexOf(c) >= from && c.method === 'sendMessage' && repliesTo(c, voiceMessageId), 30_000);
    let rows: (typeof predictions.$inferSelect)[] = [];
    for (let tries = 0; tries < 100 && rows.length < 2; tries += 1) {
      rows = await db.select().from(predictions).where(eq(predictions.namespace, 'bot'));
      if (rows.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(rows.map((row) => (row.input as { speakers?: number }).speakers ?? null).sort()).toEqual([2, null]);
    expect(await getBotUserSettings(db, String(user.id))).toEqual(before);
  });

  it('should leave one message for a long transcript in a group: the preview in the file’s caption, the status deleted', async () => {
    const group = { id: -1009101, type: 'supergroup', title: 'Team' };
    const update = messageUpdate(user, {
      chat: group,
      voice: { file_id: 'long', file_unique_id: 'u-long', duration: 4, mime_type: 'audio/ogg' },
      caption: `@${FAKE_BOT_USER.username}`,
    });
    t.fake.pushUpdate(update);
    const id = update.message.message_id;
    const document = await t.fake.waitForCall((c) => c.method === 'sendDocument' && repliesTo(c, id), 90_000);
    const caption = String(document.payload.caption);
    expect(caption).toMatch(/^Пункт 1:/);
    expect(caption).toMatch(/ …\n\nThe whole text \([\d,]+ characters\) is in this file\.$/);
    expect(caption.length).toBeLessThanOrEqual(1024);
    const status = t.fake.calls.filter((c) => c.method === 'sendMessage' && repliesTo(c, id));
    expect(status).toHaveLength(1); // the status message only: no separate preview
    await t.fake.waitForCall((c) => c.method === 'deleteMessage' && c.payload.message_id === idOf(status[0]!));
  });
});
