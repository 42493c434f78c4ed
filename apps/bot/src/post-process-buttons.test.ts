import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { predictions, saveBotUserSettings, usageLedger } from '@transcribe/core';
import { type ChatServer, replyLikeAModel, startChatServer, testLlmConfig } from '@transcribe/core/testing';
import { serveFiles, type FileServer } from '../../api/src/test-support/serve-files.ts';
import { testUser, type FakeBotApi, type RecordedCall } from './test-support/fake-bot-api.ts';
import { AUDIO_DIR, startTestBot, toVoiceOgg, type TestBot } from './test-support/start-test-bot.ts';
import { commandUpdate, pressButton, pressData, voiceUpdate } from './test-support/telegram-updates.ts';

const USER = testUser(8001);

function textOf(call: RecordedCall): string {
  return String(call.payload.text);
}

/** Waits for a message to the user after call index `from` whose text matches. */
function nextMessage(fake: FakeBotApi, text: RegExp, from: number, method = 'sendMessage'): Promise<RecordedCall> {
  return fake.waitForCall(
    (c) => fake.calls.indexOf(c) >= from && c.method === method && Number(c.payload.chat_id) === USER.id && text.test(textOf(c)),
    90_000,
  );
}

function buttonTexts(fake: FakeBotApi, messageId: number): string[] {
  const markup = fake.messages.get(messageId)?.reply_markup as { inline_keyboard: { text: string }[][] } | undefined;
  return markup?.inline_keyboard.flat().map((button) => button.text) ?? [];
}

describe('post-processing buttons under a transcript (spec 2.4, 2.6.6)', () => {
  let chat: ChatServer;
  let t: TestBot;
  let transcriptId: number;
  let files: FileServer;

  beforeAll(async () => {
    chat = await startChatServer(replyLikeAModel);
    t = await startTestBot({ env: { LLM_BASE_URL: chat.baseUrl }, bot: { llm: testLlmConfig(chat.baseUrl) } });
    const voice = await toVoiceOgg(join(AUDIO_DIR, 'librispeech-test-clean/1089-134686-0001.wav'), t.workDir);
    await toVoiceOgg(join(AUDIO_DIR, 'nonspeech/generated_digital_silence_10s.wav'), t.workDir);
    files = await serveFiles(t.workDir);
    t.fake.addFile('voice', { path: voice });
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
    await chat?.close();
  });

  it('should put buttons under the transcript and send the default types of the person', async () => {
    await saveBotUserSettings(t.service.service.ctx.database.db, String(USER.id), {
      language: null,
      outputFormat: 'messages',
      postProcess: ['key_facts'],
      speakers: null,
      knownVoices: true,
    });
    const update = voiceUpdate(USER, 'voice');
    t.fake.pushUpdate(update);
    const transcript = await t.fake.waitForCall(
      (c) =>
        c.method === 'sendMessage' &&
        c.payload.reply_markup !== undefined &&
        !String(c.payload.text).startsWith('⏳') &&
        (c.payload.reply_parameters as { message_id?: number } | undefined)?.message_id === update.message.message_id,
      90_000,
    );
    transcriptId = (transcript.result as { message_id: number }).message_id;
    expect(buttonTexts(t.fake, transcriptId)).toEqual([
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
    await nextMessage(t.fake, /^RESULT key_facts \(whole\)$/, 0);
    expect(chat.requests.some((request) => request.user.toLowerCase().includes(textOf(transcript).split(' ')[0]!.toLowerCase()))).toBe(
      true,
    );
  });

  it('should run a type on the stored transcript without recognising again', async () => {
    const db = t.service.service.ctx.database.db;
    const before = (await db.select().from(predictions)).length;
    const from = t.fake.calls.length;
    pressButton(t.fake, USER, transcriptId, /^Summary$/);
    const answer = await t.fake.waitForCall((c) => t.fake.calls.indexOf(c) >= from && c.method === 'answerCallbackQuery');
    expect(answer.payload.text).toBe('Working on it…');
    await nextMessage(t.fake, /^✅ Summary$/, from, 'editMessageText');
    await nextMessage(t.fake, /^RESULT summary \(whole\)$/, from);
    expect((await db.select().from(predictions)).length).toBe(before);
  });

  it('should show every type behind More…, with a way back', async () => {
    pressButton(t.fake, USER, transcriptId, /^More…$/);
    await t.fake.waitForCall(
      (c) =>
        c.method === 'editMessageReplyMarkup' &&
        c.payload.message_id === transcriptId &&
        JSON.stringify(c.payload).includes('Speaker names'),
    );
    expect(buttonTexts(t.fake, transcriptId)).toContain('Meeting minutes');
    expect(buttonTexts(t.fake, transcriptId)).not.toContain('More…');
    const from = t.fake.calls.length;
    pressButton(t.fake, USER, transcriptId, /^◀ Back$/);
    await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= from && c.method === 'editMessageReplyMarkup' && JSON.stringify(c.payload).includes('More…'),
    );
    expect(buttonTexts(t.fake, transcriptId)).not.toContain('Meeting minutes');
  });

  it('should ask for the target language, then translate and restore the buttons', async () => {
    const from = t.fake.calls.length;
    pressButton(t.fake, USER, transcriptId, /^Translation…$/);
    await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= from && c.method === 'editMessageReplyMarkup' && JSON.stringify(c.payload).includes('pt:'),
    );
    // The likely targets are on the first page; the rare ones (Afrikaans) come later.
    expect(buttonTexts(t.fake, transcriptId).slice(0, 3)).toEqual(['English', 'Spanish', 'French']);
    expect(buttonTexts(t.fake, transcriptId)).not.toContain('Afrikaans');
    pressButton(t.fake, USER, transcriptId, /^German$/);
    await nextMessage(t.fake, /^✅ Translation \(German\)$/, from, 'editMessageText');
    await nextMessage(t.fake, /^RESULT translation \(whole\)$/, from);
    expect(chat.requests.some((request) => request.system.includes('German'))).toBe(true);
    await t.fake.waitForCall(
      (c) => t.fake.calls.indexOf(c) >= from && c.method === 'editMessageReplyMarkup' && JSON.stringify(c.payload).includes('More…'),
    );
  });

  it('should say in plain words when the language model fails', async () => {
    chat.setScript(() => ({ status: 500 }));
    try {
      const from = t.fake.calls.length;
      pressButton(t.fake, USER, transcriptId, /^Action items$/);
      const status = await nextMessage(t.fake, /could not/, from, 'editMessageText');
      expect(textOf(status)).toBe('Action items: The language model could not do this right now. Try again in a few minutes.');
    } finally {
      chat.setScript(replyLikeAModel);
    }
  });

  it('should keep the namespaces apart: buttons act only on the person’s bot predictions', async () => {
    const db = t.service.service.ctx.database.db;
    // The same person's key on the HTTP API: its prediction is in namespace api.
    const from = t.fake.calls.length;
    t.fake.pushUpdate(commandUpdate(USER, '/api'));
    const menu = await nextMessage(t.fake, /^API access/, from);
    pressButton(t.fake, USER, (menu.result as { message_id: number }).message_id, /Get token/);
    const key = /<code>(tsk_[\w-]+)<\/code>/.exec(textOf(await nextMessage(t.fake, /Your API key/, from)))![1]!;
    const created = await fetch(`${t.service.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: `${files.url}/generated_digital_silence_10s.ogg` } }),
    });
    expect(created.status).toBe(201);
    const apiPrediction = (await created.json()) as { id: string };
    const [apiRow] = await db.select().from(predictions).where(eq(predictions.id, apiPrediction.id));
    expect(apiRow?.namespace).toBe('api');
    const botRows = await db.select().from(predictions).where(eq(predictions.namespace, 'bot'));
    expect(botRows.length).toBe(1);
    // A button naming the API prediction is refused as unknown.
    const at = t.fake.calls.length;
    pressData(t.fake, USER, t.fake.messages.get(transcriptId)!, `pp:${apiPrediction.id}:0`);
    await nextMessage(t.fake, /^I can't find that transcript any more\. Send the recording again\.$/, at);
    // Charges of both follow the same ledger, under the person.
    const [charge] = await db
      .select()
      .from(usageLedger)
      .where(and(eq(usageLedger.predictionId, botRows[0]!.id)));
    expect(charge?.userId).toBe(`telegram:${USER.id}`);
    const account = (await (
      await fetch(`${t.service.replicateBase}/v1/account`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { usage: { predictions: number } };
    expect(account.usage.predictions).toBeGreaterThanOrEqual(1);
    // /usage counts both places for the person.
    const asked = t.fake.calls.length;
    t.fake.pushUpdate(commandUpdate(USER, '/usage'));
    const usage = textOf(await nextMessage(t.fake, /^Your usage so far:/, asked));
    expect(usage).toMatch(/^• In this chat: 1 recording \(1 done\), 0\.\d min of audio$/m);
    expect(usage).toMatch(/^• Through the API: 1 recording/m);
    expect(usage).toMatch(/^Charged in the last 27 days: \d+\.\d min of audio\.$/m);
  });
});
