import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBotUserSettings, saveBotUserSettings } from '@transcribe/core';
import { testUser, type FakeBotApi, type RecordedCall } from './test-support/fake-bot-api.ts';
import { startTestBot, type TestBot } from './test-support/start-test-bot.ts';
import { commandUpdate, messageUpdate, pressButton } from './test-support/telegram-updates.ts';

/** Waits for the bot's next message to `chatId` (after call index `from`) whose text matches. */
async function nextMessage(fake: FakeBotApi, chatId: number, text: RegExp, from = 0): Promise<RecordedCall & { id: number }> {
  const call = await fake.waitForCall(
    (c) => fake.calls.indexOf(c) >= from && c.method === 'sendMessage' && c.payload.chat_id === chatId && text.test(String(c.payload.text)),
    20_000,
  );
  return Object.assign(call, { id: (call.result as { message_id: number }).message_id });
}

describe('the /settings conversation', () => {
  let t: TestBot;

  beforeAll(async () => {
    // A language model is configured, so the post-processing question is asked.
    t = await startTestBot({
      env: { LLM_BASE_URL: 'http://127.0.0.1:9/v1' },
      bot: {
        llm: {
          baseUrl: 'http://127.0.0.1:9/v1',
          apiKey: '',
          model: 'm',
          timeoutMs: 1000,
          maxRetries: 0,
          contextTokens: 8192,
          concurrency: 1,
        },
      },
    });
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should ask language, format, post-processing, speakers and named voices, then save them for the person', async () => {
    const user = testUser(7001);
    const { fake } = t;
    fake.pushUpdate(commandUpdate(user, '/settings'));
    expect((await nextMessage(fake, user.id, /^Your settings now:/)).payload.text).toContain('• Language: automatic');
    const language = await nextMessage(fake, user.id, /Which language/);
    pressButton(fake, user, language.id, /^English$/);
    const format = await nextMessage(fake, user.id, /How should I send/);
    expect(fake.messages.get(language.id)?.text).toMatch(/→ English$/);
    pressButton(fake, user, format.id, /srt/);
    const types = await nextMessage(fake, user.id, /after every transcript/);
    pressButton(fake, user, types.id, /^Summary$/);
    await fake.waitForCall((c) => c.method === 'editMessageReplyMarkup' && c.payload.message_id === types.id);
    pressButton(fake, user, types.id, /^Key facts$/);
    await fake.waitForCall(
      (c) =>
        c.method === 'editMessageReplyMarkup' && c.payload.message_id === types.id && JSON.stringify(c.payload).includes('✅ Key facts'),
    );
    pressButton(fake, user, types.id, /^Done$/);
    const speakers = await nextMessage(fake, user.id, /How many people/);
    const before = fake.calls.length;
    fake.pushUpdate(messageUpdate(user, { text: 'lots' }));
    await nextMessage(fake, user.id, /pick one of the buttons/, before);
    fake.pushUpdate(messageUpdate(user, { text: '2' }));
    const voices = await nextMessage(fake, user.id, /Recognise the voices you named\?/);
    pressButton(fake, user, voices.id, /^Off$/);
    const saved = await nextMessage(fake, user.id, /^Saved/);
    expect(saved.payload.text).toBe(
      'Saved. From now on:\n• Language: English\n• Transcript as: .srt subtitles\n• After each transcript: Summary, Key facts\n• Speakers: 2\n• Named voices: off',
    );
    expect(fake.messages.get(speakers.id)?.text).toMatch(/→ 2$/);
    expect(fake.messages.get(voices.id)?.text).toMatch(/→ Off$/);
    expect(await getBotUserSettings(t.service.service.ctx.database.db, String(user.id))).toEqual({
      language: 'en',
      outputFormat: 'srt',
      postProcess: ['summary', 'key_facts'],
      speakers: 2,
      knownVoices: false,
    });
  });

  it('should leave the settings unchanged on /cancel', async () => {
    const user = testUser(7002);
    const db = t.service.service.ctx.database.db;
    await saveBotUserSettings(db, String(user.id), {
      language: null,
      outputFormat: 'txt',
      postProcess: [],
      speakers: 3,
      knownVoices: true,
    });
    t.fake.pushUpdate(commandUpdate(user, '/settings'));
    const language = await nextMessage(t.fake, user.id, /Which language/);
    pressButton(t.fake, user, language.id, /^Automatic$/);
    await nextMessage(t.fake, user.id, /How should I send/);
    t.fake.pushUpdate(commandUpdate(user, '/cancel'));
    await nextMessage(t.fake, user.id, /^Settings unchanged\.$/);
    expect(await getBotUserSettings(db, String(user.id))).toEqual({
      language: null,
      outputFormat: 'txt',
      postProcess: [],
      speakers: 3,
      knownVoices: true,
    });
    // The conversation is over: /cancel now has nothing to cancel.
    const from = t.fake.calls.length;
    t.fake.pushUpdate(commandUpdate(user, '/cancel'));
    await nextMessage(t.fake, user.id, /nothing to cancel/, from);
  });

  it('should end the conversation when another command comes, and run that command', async () => {
    const user = testUser(7003);
    t.fake.pushUpdate(commandUpdate(user, '/settings'));
    const language = await nextMessage(t.fake, user.id, /Which language/);
    const from = t.fake.calls.length;
    t.fake.pushUpdate(commandUpdate(user, '/help'));
    await nextMessage(t.fake, user.id, /^Send me a voice message/, from);
    // A button of the left conversation no longer does anything.
    const pressedAt = t.fake.calls.length;
    pressButton(t.fake, user, language.id, /^English$/);
    const answer = await t.fake.waitForCall((c) => t.fake.calls.indexOf(c) >= pressedAt && c.method === 'answerCallbackQuery');
    expect(answer.payload.text).toBe('This button no longer works.');
  });

  it('should say this server recognises only English, and answer typed languages with that (PocketSphinx)', async () => {
    const user = testUser(7004);
    const { fake } = t;
    fake.pushUpdate(commandUpdate(user, '/settings'));
    const language = await nextMessage(fake, user.id, /Which language/);
    expect(language.payload.text).toBe('Which language is spoken in your recordings? This server recognises only English.');
    expect(String(language.payload.text)).not.toMatch(/type/);
    for (const typed of ['German', 'deutsch', 'de']) {
      const from = fake.calls.length;
      fake.pushUpdate(messageUpdate(user, { text: typed }));
      const reply = await nextMessage(fake, user.id, /recognises only/, from);
      expect(reply.payload.text).toBe('This server recognises only English, not German. Pick one of the buttons above (or /cancel).');
    }
    const from = fake.calls.length;
    fake.pushUpdate(messageUpdate(user, { text: 'english' }));
    await nextMessage(fake, user.id, /How should I send/, from);
    expect(fake.messages.get(language.id)?.text).toMatch(/→ English$/);
    fake.pushUpdate(commandUpdate(user, '/cancel'));
    await nextMessage(fake, user.id, /^Settings unchanged\.$/, from);
  });

  it('should ask the same in Russian', async () => {
    const user = { ...testUser(7005), language_code: 'ru' };
    const { fake } = t;
    fake.pushUpdate(commandUpdate(user, '/settings'));
    const language = await nextMessage(fake, user.id, /На каком языке/);
    expect(language.payload.text).toBe('На каком языке говорят в ваших записях? Этот сервер распознаёт только английский.');
    const from = fake.calls.length;
    fake.pushUpdate(messageUpdate(user, { text: 'немецкий' }));
    const reply = await nextMessage(fake, user.id, /распознаёт только/, from);
    expect(reply.payload.text).toBe('Этот сервер распознаёт только английский, а не немецкий. Выберите одну из кнопок выше (или /cancel).');
    fake.pushUpdate(commandUpdate(user, '/cancel'));
    await nextMessage(fake, user.id, /^Настройки не изменились\.$/, from);
  });
});
