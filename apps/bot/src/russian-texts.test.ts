import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBotUserProfile, listBotUserLocales } from '@transcribe/core';
import { startBot } from './start-bot.ts';
import { startFakeBotApi, testUser, type FakeBotApi, type RecordedCall } from './test-support/fake-bot-api.ts';
import { AUDIO_DIR, startTestBot, toVoiceOgg, type TestBot } from './test-support/start-test-bot.ts';
import { commandUpdate, pressButton, voiceUpdate } from './test-support/telegram-updates.ts';

const RUSSIAN = { ...testUser(9201, 'Аня'), language_code: 'ru' };

/** The bot's next message to `chatId` after call index `from` whose text matches. */
function nextMessage(fake: FakeBotApi, chatId: number, text: RegExp, from: number): Promise<RecordedCall> {
  return fake.waitForCall(
    (c) => fake.calls.indexOf(c) >= from && c.method === 'sendMessage' && c.payload.chat_id === chatId && text.test(String(c.payload.text)),
    20_000,
  );
}

function idOf(call: RecordedCall): number {
  return (call.result as { message_id: number }).message_id;
}

describe('the bot in Russian', () => {
  let t: TestBot;

  beforeAll(async () => {
    t = await startTestBot({ kind: 'pglite' });
    t.fake.addFile('ru-voice', { path: await toVoiceOgg(join(AUDIO_DIR, 'librispeech-test-clean/1089-134686-0001.wav'), t.workDir) });
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should register the command list in English and, for Russian Telegram users, in Russian', () => {
    const lists = t.fake.calls.filter((c) => c.method === 'setMyCommands');
    const russian = lists.find((c) => c.payload.language_code === 'ru');
    expect(russian?.payload.commands).toContainEqual({ command: 'help', description: 'Что я умею' });
    expect(lists.find((c) => c.payload.language_code === undefined)?.payload.commands).toContainEqual({
      command: 'help',
      description: 'What I can do',
    });
  });

  it('should answer a person whose Telegram is in Russian in Russian: help, usage, the API menu and the key', async () => {
    const { fake } = t;
    let from = fake.calls.length;
    fake.pushUpdate(commandUpdate(RUSSIAN, '/start'));
    const help = String((await nextMessage(fake, RUSSIAN.id, /^Пришлите мне голосовое сообщение/, from)).payload.text);
    expect(help).toContain('/help – Что я умею');
    expect(help).toContain('/language – Язык моих сообщений');
    from = fake.calls.length;
    fake.pushUpdate(commandUpdate(RUSSIAN, '/usage'));
    await nextMessage(fake, RUSSIAN.id, /^Вы ещё ничего не расшифровали\./, from);
    from = fake.calls.length;
    fake.pushUpdate(commandUpdate(RUSSIAN, '/api'));
    const menu = await nextMessage(fake, RUSSIAN.id, /^Доступ к API/, from);
    expect(String(menu.payload.text)).toContain('перестаёт работать сразу');
    pressButton(fake, RUSSIAN, idOf(menu), /Получить ключ/);
    const key = await nextMessage(fake, RUSSIAN.id, /^🔑 Ваш ключ API\./, from);
    expect(String(key.payload.text)).toContain('Храните его как пароль');
    expect(JSON.stringify(fake.messages.get(idOf(key))?.reply_markup)).toContain('Удалить это сообщение');
  });

  it('should show the status message, the transcript buttons and the files in Russian', async () => {
    const { fake } = t;
    const update = voiceUpdate(RUSSIAN, 'ru-voice');
    fake.pushUpdate(update);
    const status = await fake.waitForCall(
      (c) =>
        c.method === 'sendMessage' &&
        (c.payload.reply_parameters as { message_id?: number } | undefined)?.message_id === update.message.message_id,
    );
    expect(status.payload.text).toBe('⏳ Получаю файл из Telegram…');
    await fake.waitForCall(
      (c) =>
        c.method === 'editMessageText' &&
        c.payload.message_id === idOf(status) &&
        /^✅ Расшифровано: 0:\d\d звука\.$/.test(String(c.payload.text)),
      90_000,
    );
    // Decimals with a comma, as Russian writes them.
    const shown = fake.calls
      .filter((c) => c.method === 'editMessageText' && c.payload.message_id === idOf(status))
      .map((c) => String(c.payload.text));
    expect(shown.some((text) => /✅ Файл получен \(\d+ КиБ\)/.test(text))).toBe(true);
    for (const text of shown) expect(text).not.toMatch(/\d\.\d/);
    const transcript = await fake.waitForCall(
      (c) =>
        c.method === 'sendMessage' &&
        JSON.stringify(c.payload.reply_markup ?? null).includes('pf:') &&
        (c.payload.reply_parameters as { message_id?: number } | undefined)?.message_id === update.message.message_id,
    );
    expect(JSON.stringify(transcript.payload.reply_markup)).toContain('👥 Говорящие…');
    const from = fake.calls.length;
    pressButton(fake, RUSSIAN, idOf(transcript), /\.txt$/);
    const file = await fake.waitForCall((c) => fake.calls.indexOf(c) >= from && c.method === 'sendDocument');
    expect(file.payload.caption).toBe('Расшифровка (.txt)');
    // /usage in Russian: minutes with a decimal comma.
    const asked = fake.calls.length;
    fake.pushUpdate(commandUpdate(RUSSIAN, '/usage'));
    const usage = String((await nextMessage(fake, RUSSIAN.id, /^Ваш расход:/, asked)).payload.text);
    expect(usage).toMatch(/^Списано за последние 27 дн\.: \d+,\d мин звука\.$/m);
  });

  it('should hand /portal a link whose pages speak the person’s bot language and greet them by name', async () => {
    const { fake } = t;
    const from = fake.calls.length;
    fake.pushUpdate(commandUpdate(RUSSIAN, '/portal'));
    const reply = String((await nextMessage(fake, RUSSIAN.id, /^Ваша одноразовая ссылка/, from)).payload.text);
    const url = /https?:\/\/\S+/.exec(reply)?.[0] ?? '';
    expect(url).toMatch(/&lang=ru$/);
    expect(await getBotUserProfile(t.service.service.ctx.database.db, String(RUSSIAN.id))).toMatchObject({
      displayName: 'Аня',
      telegramLanguage: 'ru',
    });
    const page = await (await fetch(url.replace(/^https?:\/\/[^/]+/, t.service.url))).text();
    expect(page).toContain('<html lang="ru">');
    expect(page).toContain('<button type="submit" class="primary" autofocus>Войти</button>');
  });

  it('should take the language as an argument (/language en, /language русский) and point /token to /api', async () => {
    const { fake } = t;
    const person = { ...testUser(9202, 'Оля'), language_code: 'ru' };
    let from = fake.calls.length;
    fake.pushUpdate(commandUpdate(person, '/token'));
    expect((await nextMessage(fake, person.id, /\/api/, from)).payload.text).toBe(
      'Ключ API — в разделе /api: отправьте /api и нажмите «🔑 Получить ключ».',
    );
    from = fake.calls.length;
    fake.pushUpdate(commandUpdate(person, '/language en'));
    expect((await nextMessage(fake, person.id, /./, from)).payload.text).toBe('I will speak English from now on.');
    from = fake.calls.length;
    fake.pushUpdate(commandUpdate(person, '/token'));
    expect((await nextMessage(fake, person.id, /\/api/, from)).payload.text).toBe(
      'Your API key is under /api: send /api and press “🔑 Get token”.',
    );
    from = fake.calls.length;
    fake.pushUpdate(commandUpdate(person, '/language русский'));
    expect((await nextMessage(fake, person.id, /./, from)).payload.text).toBe('Теперь я говорю по-русски.');
    from = fake.calls.length;
    fake.pushUpdate(commandUpdate(person, '/language klingon'));
    await nextMessage(fake, person.id, /^На каком языке мне с вами говорить\?/, from);
  });

  it('should ask the /settings questions in Russian, with language names in Russian', async () => {
    const { fake } = t;
    const from = fake.calls.length;
    fake.pushUpdate(commandUpdate(RUSSIAN, '/settings'));
    const now = await nextMessage(fake, RUSSIAN.id, /^Ваши настройки сейчас:/, from);
    expect(String(now.payload.text)).toContain('• Язык: автоматически');
    const question = await nextMessage(fake, RUSSIAN.id, /^На каком языке говорят в ваших записях\?/, from);
    const labels = JSON.stringify(fake.messages.get(idOf(question))?.reply_markup);
    expect(labels).toContain('Автоматически');
    pressButton(fake, RUSSIAN, idOf(question), /^Автоматически$/);
    await nextMessage(fake, RUSSIAN.id, /^Как присылать расшифровки\?/, from);
    fake.pushUpdate(commandUpdate(RUSSIAN, '/cancel'));
    await nextMessage(fake, RUSSIAN.id, /^Настройки не изменились\.$/, from);
  });

  it('should switch to English on /language and stay there, whatever Telegram says, across a restart', async () => {
    const { fake } = t;
    let from = fake.calls.length;
    fake.pushUpdate(commandUpdate(RUSSIAN, '/language'));
    const question = await nextMessage(fake, RUSSIAN.id, /^На каком языке мне с вами говорить\?/, from);
    pressButton(fake, RUSSIAN, idOf(question), /^English$/);
    await fake.waitForCall(
      (c) => fake.calls.indexOf(c) >= from && c.method === 'editMessageText' && c.payload.text === 'I will speak English from now on.',
    );
    from = fake.calls.length;
    fake.pushUpdate(commandUpdate(RUSSIAN, '/help'));
    await nextMessage(fake, RUSSIAN.id, /^Send me a voice message/, from);
    // The choice is stored: a bot started afresh on the same database keeps it.
    const db = t.service.service.ctx.database.db;
    for (
      let tries = 0;
      tries < 50 && !(await listBotUserLocales(db, 10)).some((row) => row.telegramId === String(RUSSIAN.id));
      tries += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const fresh = await startFakeBotApi();
    const restarted = await startBot(t.service.service.ctx, {
      token: fresh.token,
      apiRoot: fresh.apiRoot,
      publicApiBaseUrl: t.service.replicateBase,
      keyGraceSeconds: 0,
    });
    try {
      fresh.pushUpdate(commandUpdate(RUSSIAN, '/help'));
      await nextMessage(fresh, RUSSIAN.id, /^Send me a voice message/, 0);
    } finally {
      await restarted.stop();
      await fresh.close();
    }
    // And back.
    from = fake.calls.length;
    fake.pushUpdate(commandUpdate(RUSSIAN, '/language'));
    const again = await nextMessage(fake, RUSSIAN.id, /^Which language should I speak\?/, from);
    pressButton(fake, RUSSIAN, idOf(again), /^Русский$/);
    await fake.waitForCall(
      (c) => fake.calls.indexOf(c) >= from && c.method === 'editMessageText' && c.payload.text === 'Теперь я говорю по-русски.',
    );
  });
});
