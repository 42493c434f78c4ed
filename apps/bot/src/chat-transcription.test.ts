import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { normalizeForWer, predictions, saveBotUserSettings, wordErrorRate } from '@transcribe/core';
import { english } from './test-support/english-texts.ts';
import { startBot } from './start-bot.ts';
import { startFakeBotApi, testUser, type FakeBotApi, type RecordedCall } from './test-support/fake-bot-api.ts';
import { AUDIO_DIR, startTestBot, toVoiceOgg, type TestBot } from './test-support/start-test-bot.ts';
import { messageUpdate, pressData, voiceUpdate } from './test-support/telegram-updates.ts';

const CLIP = 'librispeech-test-clean/1089-134686-0001';

/** The status message the bot sent in answer to message `replyTo`. */
async function statusMessageFor(fake: FakeBotApi, replyTo: number): Promise<number> {
  const call = await fake.waitForCall(
    (c) => c.method === 'sendMessage' && (c.payload.reply_parameters as { message_id?: number } | undefined)?.message_id === replyTo,
  );
  return (call.result as { message_id: number }).message_id;
}

/** The last text the status message `id` shows once `done` matches it. */
async function finalStatus(fake: FakeBotApi, id: number, done: RegExp): Promise<string> {
  const call = await fake.waitForCall(
    (c) => c.method === 'editMessageText' && c.payload.message_id === id && done.test(String(c.payload.text)),
  );
  return String(call.payload.text);
}

function repliesTo(fake: FakeBotApi, replyTo: number): RecordedCall[] {
  return fake.calls.filter((c) => (c.payload.reply_parameters as { message_id?: number } | undefined)?.message_id === replyTo);
}

describe('transcription in chat against the Bot API protocol', () => {
  let t: TestBot;
  let voice: string;

  beforeAll(async () => {
    t = await startTestBot({ kind: 'pglite' });
    voice = await toVoiceOgg(join(AUDIO_DIR, `${CLIP}.wav`), t.workDir);
    t.fake.addFile('voice-1', { path: voice });
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should answer a voice message with one status message edited by stage, then the transcript, then shrink the status to one line', async () => {
    const user = testUser(5001);
    const update = voiceUpdate(user, 'voice-1');
    t.fake.pushUpdate(update);
    const statusId = await statusMessageFor(t.fake, update.message.message_id);
    expect(t.fake.messages.get(statusId)).toBeDefined();
    const final = await finalStatus(t.fake, statusId, /^✅ Transcribed/);
    expect(final).toMatch(/^✅ Transcribed: 0:\d\d of audio\.$/);
    const edits = t.fake.calls.filter((c) => c.method === 'editMessageText' && c.payload.message_id === statusId);
    expect(String(edits[0]!.payload.text)).toMatch(/✅ File received/);
    // A short clip is recognised in one piece: no "0%" standing still, a number only once there is one.
    for (const edit of edits) expect(String(edit.payload.text)).not.toMatch(/Recognising speech… 0%/);
    const transcript = await t.fake.waitForCall(
      (c) => c.method === 'sendMessage' && c.payload.reply_parameters !== undefined && !String(c.payload.text).includes('Getting the file'),
    );
    // The status shrinks once the transcript is in the chat, and loses its ✖ Cancel button.
    expect(t.fake.calls.indexOf(transcript)).toBeLessThan(t.fake.calls.indexOf(edits.at(-1)!));
    expect(t.fake.messages.get(statusId)?.reply_markup).toBeUndefined();
    const reference = await readFile(join(AUDIO_DIR, `${CLIP}.txt`), 'utf8');
    // A doubtful passage (PocketSphinx's low word posteriors flag most of its segments) is in italics, the note after it.
    const said = String(transcript.payload.text).replace(english('doubtful-note'), '');
    if (said !== String(transcript.payload.text)) {
      expect(transcript.payload.entities).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'italic' })]));
    }
    expect(wordErrorRate(normalizeForWer(reference), normalizeForWer(said)).wer).toBeLessThan(0.6);
    // No language model: no post-processing buttons, only the file formats and the speakers re-run.
    expect(JSON.stringify(transcript.payload.reply_markup)).not.toContain('Summary');
    expect(JSON.stringify(transcript.payload.reply_markup)).toContain('📄 .pdf');
    expect(t.fake.calls.some((c) => c.method === 'getFile' && c.payload.file_id === 'voice-1')).toBe(true);
  });

  it('should record chat work in cache namespace bot under the person', async () => {
    const rows = await t.service.service.ctx.database.db.select().from(predictions).where(eq(predictions.namespace, 'bot'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.status === 'succeeded')).toBe(true);
  });

  it('should answer a post-processing button in plain words when no language model is configured', async () => {
    const [row] = await t.service.service.ctx.database.db.select().from(predictions).where(eq(predictions.namespace, 'bot'));
    const message = [...t.fake.messages.values()][0]!;
    pressData(t.fake, testUser(5001), message, `pp:${row!.id}:0`);
    const answer = await t.fake.waitForCall((c) => c.method === 'answerCallbackQuery');
    expect(answer.payload).toMatchObject({ text: english('error-no-language-model'), show_alert: true });
  });

  it('should send .srt subtitles as a document when the person chose srt', async () => {
    const user = testUser(5002);
    await saveBotUserSettings(t.service.service.ctx.database.db, String(user.id), {
      language: null,
      outputFormat: 'srt',
      postProcess: [],
      speakers: null,
      knownVoices: true,
    });
    t.fake.pushUpdate(voiceUpdate(user, 'voice-1'));
    const document = await t.fake.waitForCall((c) => c.method === 'sendDocument' && Number(c.payload.chat_id) === user.id);
    const file = Object.values(document.files)[0]!;
    expect(file.filename).toBe('voice.srt');
    expect(file.content.toString('utf8')).toMatch(/^1\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}\n\S/);
  });

  it('should refuse other files in plain words', async () => {
    const user = testUser(5003);
    const update = messageUpdate(user, {
      document: { file_id: 'pdf', file_unique_id: 'pdf', mime_type: 'application/pdf', file_name: 'notes.pdf' },
    });
    t.fake.pushUpdate(update);
    const reply = await t.fake.waitForCall((c) => repliesTo(t.fake, update.message.message_id).includes(c));
    expect(reply.payload.text).toBe("I can't transcribe this kind of file. Send a voice message, a video note, or an audio or video file.");
  });

  it('should refuse a file over the limit before downloading it', async () => {
    const user = testUser(5004);
    const update = voiceUpdate(user, 'huge', 400 * 1024 * 1024);
    t.fake.pushUpdate(update);
    const reply = await t.fake.waitForCall((c) => repliesTo(t.fake, update.message.message_id).includes(c));
    expect(reply.payload.text).toBe(
      'This file is too large: I can take files up to 300 MiB. Send a shorter or more compressed recording, or upload it in the web portal (/portal).',
    );
    expect(t.fake.calls.some((c) => c.method === 'getFile' && c.payload.file_id === 'huge')).toBe(false);
  });

  it('should say the file is too large when the Bot API refuses to hand it over for its size', async () => {
    t.fake.addFile('too-big', { getFileError: { code: 400, description: 'Bad Request: file is too big' } });
    const update = voiceUpdate(testUser(5005), 'too-big');
    t.fake.pushUpdate(update);
    const statusId = await statusMessageFor(t.fake, update.message.message_id);
    expect(await finalStatus(t.fake, statusId, /too large/)).toMatch(/^This file is too large/);
  });

  it('should say when Telegram does not deliver the file', async () => {
    t.fake.addFile('gone', {}); // getFile answers, the download is 404
    const update = voiceUpdate(testUser(5006), 'gone');
    t.fake.pushUpdate(update);
    const statusId = await statusMessageFor(t.fake, update.message.message_id);
    expect(await finalStatus(t.fake, statusId, /Telegram/)).toBe('Telegram refused to hand over what I needed. Try again in a minute.');
  });

  it('should say when a file is not readable audio', async () => {
    const junk = join(t.workDir, 'junk.ogg');
    await writeFile(junk, Buffer.alloc(4096, 7));
    t.fake.addFile('junk', { path: junk });
    const update = messageUpdate(testUser(5007), {
      document: { file_id: 'junk', file_unique_id: 'junk', mime_type: 'audio/ogg', file_name: 'talk.ogg' },
    });
    t.fake.pushUpdate(update);
    const statusId = await statusMessageFor(t.fake, update.message.message_id);
    expect(await finalStatus(t.fake, statusId, /read this file/)).toBe(
      "I couldn't read this file: it isn't audio or video I know, or it is damaged.",
    );
  });

  it('should say when nothing was recognised', async () => {
    const silence = await toVoiceOgg(join(AUDIO_DIR, 'nonspeech/generated_digital_silence_10s.wav'), t.workDir);
    t.fake.addFile('silence', { path: silence });
    const update = voiceUpdate(testUser(5008), 'silence');
    t.fake.pushUpdate(update);
    const statusId = await statusMessageFor(t.fake, update.message.message_id);
    expect(await finalStatus(t.fake, statusId, /hear any speech/)).toBe(english('error-no-speech'));
  });

  it('should read files from disk when a local Bot API server gives absolute paths', async () => {
    const silence = await toVoiceOgg(join(AUDIO_DIR, 'nonspeech/generated_digital_silence_10s.wav'), t.workDir);
    t.fake.addFile('local', { path: silence, localPath: true });
    const update = voiceUpdate(testUser(5012), 'local');
    t.fake.pushUpdate(update);
    const statusId = await statusMessageFor(t.fake, update.message.message_id);
    expect(await finalStatus(t.fake, statusId, /hear any speech/)).toBe(english('error-no-speech'));
  });

  it('should answer text that is not a command with what to send', async () => {
    const update = messageUpdate(testUser(5009), { text: 'hello?' });
    t.fake.pushUpdate(update);
    const reply = await t.fake.waitForCall((c) => c.method === 'sendMessage' && c.payload.chat_id === 5009);
    expect(reply.payload.text).toBe(english('send-a-recording'));
  });

  it('should tell the chat to resend when the bot stops while the file is still downloading', async () => {
    const fake = await startFakeBotApi();
    fake.addFile('slow', { path: voice, delayMs: 3000 });
    const bot = await startBot(t.service.service.ctx, {
      token: fake.token,
      apiRoot: fake.apiRoot,
      publicApiBaseUrl: t.service.replicateBase,
      keyGraceSeconds: 0,
    });
    try {
      const first = voiceUpdate(testUser(5010), 'slow');
      fake.pushUpdate(first);
      const statusId = await statusMessageFor(fake, first.message.message_id);
      await bot.stop();
      expect(fake.messages.get(statusId)?.text).toBe(english('error-stopped'));
    } finally {
      await bot.stop();
      await fake.close();
    }
  });
});
