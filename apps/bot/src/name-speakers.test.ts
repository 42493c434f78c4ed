import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import type { Message, User } from 'grammy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listVoices, predictions, saveBotUserSettings, telegramOwner, type BotUserSettings } from '@transcribe/core';
import { english } from './test-support/english-texts.ts';
import { FAKE_BOT_USER, testUser, type FakeBotApi, type RecordedCall } from './test-support/fake-bot-api.ts';
import { AUDIO_DIR, startTestBot, toVoiceOgg, type TestBot } from './test-support/start-test-bot.ts';
import { messageUpdate, pressButton, pressData, voiceUpdate } from './test-support/telegram-updates.ts';

const run = promisify(execFile);
const LV = 'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb';
const GROUP = { id: -1009876543210, type: 'supergroup', title: 'Team' };
const MENTION = `@${FAKE_BOT_USER.username}`;
const TWO_SPEAKERS: BotUserSettings = { language: null, outputFormat: 'messages', postProcess: [], speakers: 2, knownVoices: true };

type Sent = RecordedCall & { id: number };

const replyToOf = (call: RecordedCall) => (call.payload.reply_parameters as { message_id?: number } | undefined)?.message_id;
const withId = (call: RecordedCall): Sent => Object.assign(call, { id: (call.result as { message_id: number }).message_id });
const buttonsOf = (call: RecordedCall) =>
  ((call.payload.reply_markup as { inline_keyboard?: { text: string }[][] } | undefined)?.inline_keyboard ?? []).flat().map((b) => b.text);

/** The bot's next call after call index `from` that matches. */
async function next(fake: FakeBotApi, from: number, match: (call: RecordedCall) => boolean, timeoutMs = 60_000): Promise<Sent> {
  return withId(await fake.waitForCall((c) => fake.calls.indexOf(c) >= from && match(c), timeoutMs));
}

/** The transcript (the message with the buttons) answering recording `recordingId` in `chatId`. */
function transcriptFor(fake: FakeBotApi, chatId: number, recordingId: number): Promise<Sent> {
  return next(
    fake,
    0,
    (c) =>
      c.method === 'sendMessage' &&
      Number(c.payload.chat_id) === chatId &&
      replyToOf(c) === recordingId &&
      JSON.stringify(c.payload.reply_markup ?? null).includes('"pf:'),
    240_000,
  );
}

/** A text message of the bot in `chatId` after `from` whose text matches. */
function textAfter(fake: FakeBotApi, from: number, chatId: number, text: RegExp): Promise<Sent> {
  return next(fake, from, (c) => c.method === 'sendMessage' && Number(c.payload.chat_id) === chatId && text.test(String(c.payload.text)));
}

/** The excerpt (a voice message, or an audio file) after `from` whose caption matches. */
function excerptAfter(fake: FakeBotApi, from: number, chatId: number, caption: RegExp, method = 'sendVoice'): Promise<Sent> {
  return next(fake, from, (c) => c.method === method && Number(c.payload.chat_id) === chatId && caption.test(String(c.payload.caption)));
}

/** Seconds and codec of an excerpt the bot sent, read by ffprobe. */
async function probeExcerpt(call: RecordedCall, dir: string): Promise<{ seconds: number; codec: string }> {
  const file = Object.values(call.files)[0]!;
  const path = join(dir, `excerpt-${call.payload.chat_id}-${Date.now()}.ogg`);
  await writeFile(path, file.content);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration:stream=codec_name', '-of', 'json', path]);
  const probe = JSON.parse(stdout) as { format: { duration: string }; streams: { codec_name: string }[] };
  return { seconds: Number(probe.format.duration), codec: probe.streams[0]!.codec_name };
}

/** The prediction id in the callback data of a transcript's buttons (`pf:<id>:txt`). */
function predictionOf(transcript: RecordedCall): string {
  const rows = (transcript.payload.reply_markup as { inline_keyboard: { callback_data: string }[][] }).inline_keyboard;
  return rows
    .flat()
    .find((b) => b.callback_data.startsWith('pf:'))!
    .callback_data.split(':')[1]!;
}

/** Concatenates recordings into one WAV, then makes a voice message (OGG/Opus) of it. */
async function conversation(dir: string, name: string, parts: string[]): Promise<string> {
  const wav = join(dir, `${name}.wav`);
  const inputs = parts.flatMap((part) => ['-i', join(AUDIO_DIR, part)]);
  const streams = parts.map((_, i) => `[${i}:a]`).join('');
  await run('ffmpeg', ['-v', 'error', '-y', ...inputs, '-filter_complex', `${streams}concat=n=${parts.length}:v=0:a=1`, wav]);
  return toVoiceOgg(wav, dir);
}

/**
 * "Name speakers" (docs/bot.md, docs/speakers.md) against the fake Bot API with real recordings: a
 * LibriVox reader followed by JFK. The reader named from one of her clips is recognised in another.
 */
describe('naming speakers in the bot', () => {
  let t: TestBot;

  beforeAll(async () => {
    t = await startTestBot({ kind: 'pglite', env: { VOICES_PER_ACCOUNT: '1' } });
    t.fake.addFile('talk-a', { path: await conversation(t.workDir, 'talk-a', [`${LV}-0890.wav`, 'jfk.wav']) });
    t.fake.addFile('talk-b', { path: await conversation(t.workDir, 'talk-b', [`${LV}-0870.wav`, 'jfk.wav']) });
    t.fake.addFile('one', { path: await toVoiceOgg(join(AUDIO_DIR, 'librispeech-test-clean/1089-134686-0001.wav'), t.workDir) });
  }, 60_000);

  afterAll(async () => {
    await t?.stop();
  });

  it('should offer no naming under a transcript of one voice', async () => {
    const user = testUser(8001);
    const update = voiceUpdate(user, 'one');
    t.fake.pushUpdate(update);
    const transcript = await transcriptFor(t.fake, user.id, update.message.message_id);
    expect(buttonsOf(transcript)).toContain(english('button-speakers'));
    expect(buttonsOf(transcript)).not.toContain(english('button-name-speakers'));
    // A forged press says why there is nothing to name.
    const from = t.fake.calls.length;
    pressData(t.fake, user, t.fake.messages.get(transcript.id)!, `pn:${predictionOf(transcript)}`);
    await textAfter(t.fake, from, user.id, /^Only one voice speaks/);
  }, 240_000);

  it('should play each speaker, store the named voice in the person’s registry, and label it in the next recording unless switched off', async () => {
    const { fake } = t;
    const db = t.service.service.ctx.database.db;
    const user = testUser(8002);
    await saveBotUserSettings(db, String(user.id), TWO_SPEAKERS);
    const first = voiceUpdate(user, 'talk-a', undefined, 16);
    fake.pushUpdate(first);
    const transcript = await transcriptFor(fake, user.id, first.message.message_id);
    expect(String(transcript.payload.text)).toMatch(/^SPEAKER_1: .+\nSPEAKER_2: /s);
    expect(buttonsOf(transcript)).toContain(english('button-name-speakers'));

    let from = fake.calls.length;
    pressButton(fake, user, transcript.id, /Name speakers/);
    const one = await excerptAfter(fake, from, user.id, /^Speaker 1 of 2 \(SPEAKER_1\)/);
    expect(one.payload.caption).toBe(english('naming-ask', { index: 1, total: 2, label: 'SPEAKER_1' }));
    expect(replyToOf(one)).toBe(transcript.id);
    const excerpt = await probeExcerpt(one, t.workDir);
    expect(excerpt.codec).toBe('opus');
    expect(excerpt.seconds).toBeGreaterThan(4);
    expect(excerpt.seconds).toBeLessThan(5.5);

    from = fake.calls.length;
    fake.pushUpdate(messageUpdate(user, { text: '  Reader ' }));
    await textAfter(fake, from, user.id, /^✅ SPEAKER_1 is Reader\. I'll recognise/);
    const two = await excerptAfter(fake, from, user.id, /^Speaker 2 of 2 \(SPEAKER_2\)/);
    from = fake.calls.length;
    pressButton(fake, user, two.id, /^Skip$/);
    await textAfter(fake, from, user.id, /^SPEAKER_2 skipped\.$/);
    const done = await textAfter(fake, from, user.id, /^Done: 1 voice named\./);
    expect(done.payload.text).toBe(`${english('naming-done', { count: 1 })}\n${english('naming-renamed')}`);
    const renamed = await next(fake, from, (c) => c.method === 'sendMessage' && replyToOf(c) === first.message.message_id);
    expect(String(renamed.payload.text)).toMatch(/^Reader: .+\nSPEAKER_2: /s);

    const voices = await listVoices(db, telegramOwner(user.id));
    expect(voices.map((voice) => [voice.name, voice.samples])).toEqual([['Reader', 1]]);
    expect(Object.keys(voices[0]!.embeddings)).toContain('builtin');
    expect(voices[0]!.speechSeconds).toBeGreaterThan(3);

    // Her other clip: the next recording asks for the person's voices and names her.
    const second = voiceUpdate(user, 'talk-b', undefined, 18);
    fake.pushUpdate(second);
    const named = await transcriptFor(fake, user.id, second.message.message_id);
    expect(String(named.payload.text)).toMatch(/^Reader: .+\nSPEAKER_\d: /s);
    const [row] = await db
      .select()
      .from(predictions)
      .where(eq(predictions.id, predictionOf(named)));
    expect(row!.input).toMatchObject({ known_voices: true });

    // Switched off in /settings: the same recording keeps its labels.
    await saveBotUserSettings(db, String(user.id), { ...TWO_SPEAKERS, knownVoices: false });
    const third = voiceUpdate(user, 'talk-b', undefined, 18);
    fake.pushUpdate(third);
    const unnamed = await transcriptFor(fake, user.id, third.message.message_id);
    expect(String(unnamed.payload.text)).toMatch(/^SPEAKER_1: .+\nSPEAKER_2: /s);
    expect(String(unnamed.payload.text)).not.toMatch(/Reader/);
    const [offRow] = await db
      .select()
      .from(predictions)
      .where(eq(predictions.id, predictionOf(unnamed)));
    expect(offRow!.input).not.toHaveProperty('known_voices');

    // Naming again: the same name grows her voice; bad names, a name given twice and a voice over the limit are refused in words.
    from = fake.calls.length;
    pressButton(fake, user, transcript.id, /Name speakers/);
    await excerptAfter(fake, from, user.id, /^Speaker 1 of 2/);
    fake.pushUpdate(messageUpdate(user, { text: 'Reader' }));
    await textAfter(fake, from, user.id, /^✅ SPEAKER_1 is Reader: I added this to the voice “Reader”/);
    await excerptAfter(fake, from, user.id, /^Speaker 2 of 2/);
    expect((await listVoices(db, telegramOwner(user.id))).map((voice) => [voice.name, voice.samples])).toEqual([['Reader', 2]]);
    fake.pushUpdate(messageUpdate(user, { text: 'SPEAKER_2' }));
    const invalid = await textAfter(fake, from, user.id, /^I can't use that name/);
    expect(invalid.payload.text).toBe(
      english('naming-name-invalid', { detail: 'name "SPEAKER_2" is how unnamed speakers are labelled; choose another name.' }),
    );
    fake.pushUpdate(messageUpdate(user, { text: 'x'.repeat(65) }));
    await textAfter(fake, from, user.id, /^I can't use that name: name must have at most 64 characters/);
    fake.pushUpdate(messageUpdate(user, { text: 'Reader' }));
    await textAfter(fake, from, user.id, /^You already gave the name “Reader” to another speaker/);
    fake.pushUpdate(messageUpdate(user, { text: 'Jack' }));
    const full = await textAfter(fake, from, user.id, /^You already have 1 named voice/);
    expect(full.payload.text).toBe(english('naming-full', { max: 1, name: 'Jack' }));
    await textAfter(fake, from, user.id, /^Done: 1 voice named\.\n\nRecognising named voices is switched off in \/settings/);
    expect((await listVoices(db, telegramOwner(user.id))).map((voice) => voice.name)).toEqual(['Reader']);
    // The naming is over: text is text again, and its old Skip says so.
    from = fake.calls.length;
    fake.pushUpdate(messageUpdate(user, { text: 'Jack' }));
    await next(fake, from, (c) => c.method === 'sendMessage' && c.payload.text === english('send-a-recording'));
    // Its Skip was taken off once answered; a stale press (an old client) is answered all the same.
    expect(fake.messages.get(two.id)!.reply_markup).toEqual({ inline_keyboard: [] });
    const skip = (two.payload.reply_markup as { inline_keyboard: { callback_data: string }[][] }).inline_keyboard[0]![0]!.callback_data;
    pressData(fake, user, fake.messages.get(two.id)!, skip);
    const gone = await next(fake, from, (c) => c.method === 'answerCallbackQuery' && c.payload.text === english('naming-gone'));
    expect(gone).toBeDefined();

    // The recording is no longer stored by Telegram: said in words, nothing played.
    fake.addFile('talk-a', { getFileError: { code: 400, description: 'Bad Request: invalid file_id' } });
    from = fake.calls.length;
    pressButton(fake, user, transcript.id, /Name speakers/);
    await next(fake, from, (c) => c.method === 'sendMessage' && c.payload.text === english('recording-gone'));
    expect(fake.calls.slice(from).filter((c) => c.method === 'sendVoice')).toEqual([]);
  }, 600_000);

  it('should store a voice named in a group in the registry of whoever asked for the transcript', async () => {
    const { fake } = t;
    const db = t.service.service.ctx.database.db;
    const speaker = testUser(8101, 'Speaker');
    const asker = testUser(8102, 'Asker');
    await saveBotUserSettings(db, String(asker.id), TWO_SPEAKERS);
    fake.addFile('talk-g', { path: await conversation(t.workDir, 'talk-g', [`${LV}-0890.wav`, 'jfk.wav']) });
    const recording = messageUpdate(speaker, {
      chat: GROUP,
      voice: { file_id: 'talk-g', file_unique_id: 'u-talk-g', duration: 16, mime_type: 'audio/ogg' },
    });
    fake.pushUpdate(recording);
    fake.pushUpdate(
      messageUpdate(asker, {
        chat: GROUP,
        text: `${MENTION} please`,
        entities: [{ type: 'mention', offset: 0, length: MENTION.length }],
        reply_to_message: recording.message as Message,
      }),
    );
    const transcript = await transcriptFor(fake, GROUP.id, recording.message.message_id);
    expect(buttonsOf(transcript)).toContain(english('button-name-speakers'));

    // Only the asker's transcript is theirs to name.
    let from = fake.calls.length;
    pressButton(fake, speaker, transcript.id, /Name speakers/);
    const refused = await textAfter(fake, from, GROUP.id, /./);
    expect(refused.payload.text).toBe(english('error-not-found'));
    expect(fake.calls.slice(from).filter((c) => c.method === 'sendVoice' || c.method === 'sendAudio')).toEqual([]);

    // The asker forbids voice messages (a Telegram privacy setting): the excerpts come as audio files.
    fake.refusals.set('sendVoice', { code: 400, description: 'Bad Request: VOICE_MESSAGES_FORBIDDEN' });
    from = fake.calls.length;
    pressButton(fake, asker, transcript.id, /Name speakers/);
    const audio = 'sendAudio';
    const one = await excerptAfter(fake, from, GROUP.id, /^Speaker 1 of 2 \(SPEAKER_1\)\. Who is this\? Reply to this message/, audio);
    expect((await probeExcerpt(one, t.workDir)).codec).toBe('opus');
    // Group talk that does not answer the excerpt is not a name.
    const chatter = groupText(asker, 'lunch?');
    fake.pushUpdate(chatter);
    fake.pushUpdate(groupText(asker, 'Ann', fake.messages.get(one.id)!));
    await textAfter(fake, from, GROUP.id, /^✅ SPEAKER_1 is Ann\./);
    expect(fake.calls.filter((c) => replyToOf(c) === chatter.message.message_id)).toEqual([]);
    const two = await excerptAfter(fake, from, GROUP.id, /^Speaker 2 of 2/, audio);
    fake.refusals.delete('sendVoice');
    pressButton(fake, asker, two.id, /^Skip$/);
    await textAfter(fake, from, GROUP.id, /^Done: 1 voice named\./);
    expect((await listVoices(db, telegramOwner(asker.id))).map((voice) => voice.name)).toEqual(['Ann']);
    expect(await listVoices(db, telegramOwner(speaker.id))).toEqual([]);
  }, 400_000);
});

/** A text message in the test group, answering `replyTo` when given. */
function groupText(user: User, text: string, replyTo?: Message) {
  return messageUpdate(user, { chat: GROUP, text, ...(replyTo ? { reply_to_message: replyTo } : {}) });
}
