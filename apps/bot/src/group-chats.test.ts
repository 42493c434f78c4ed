import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiKeys, botDeliveries, predictions } from '@transcribe/core';
import { english } from './test-support/english-texts.ts';
import { privateOnlyReply } from './handle-group-chats.ts';
import { FAKE_BOT_USER, testUser, type FakeBotApi, type RecordedCall } from './test-support/fake-bot-api.ts';
import { AUDIO_DIR, startTestBot, toVoiceOgg, type TestBot } from './test-support/start-test-bot.ts';
import { messageUpdate } from './test-support/telegram-updates.ts';
import type { Message, User } from 'grammy/types';

const GROUP = { id: -1001234567890, type: 'supergroup', title: 'Team' };
const MENTION = `@${FAKE_BOT_USER.username}`;

/** A message from `user` in the test group. */
function groupMessage(user: User, content: Record<string, unknown>) {
  return messageUpdate(user, { chat: GROUP, ...content });
}

function groupVoice(user: User, fileId: string, content: Record<string, unknown> = {}) {
  return groupMessage(user, { voice: { file_id: fileId, file_unique_id: `u-${fileId}`, duration: 4, mime_type: 'audio/ogg' }, ...content });
}

function groupCommand(user: User, text: string) {
  const name = text.split(' ')[0]!;
  return groupMessage(user, { text, entities: [{ type: 'bot_command', offset: 0, length: name.length }] });
}

function answers(fake: FakeBotApi, replyTo: number): RecordedCall[] {
  return fake.calls.filter((c) => (c.payload.reply_parameters as { message_id?: number } | undefined)?.message_id === replyTo);
}

/** The transcript (not a status text) answering message `replyTo` in the group. */
function transcriptFor(fake: FakeBotApi, replyTo: number) {
  return fake.waitForCall(
    (c) =>
      c.method === 'sendMessage' &&
      Number(c.payload.chat_id) === GROUP.id &&
      (c.payload.reply_parameters as { message_id?: number } | undefined)?.message_id === replyTo &&
      !/Getting the file|Waiting|File received/.test(String(c.payload.text)),
    120_000,
  );
}

/** Lets the bot take the updates pushed so far: a private /help is answered after them (updates run in order). */
async function settle(fake: FakeBotApi, user: User): Promise<void> {
  const update = messageUpdate(user, { text: '/help', entities: [{ type: 'bot_command', offset: 0, length: 5 }] });
  fake.pushUpdate(update);
  await fake.waitForCall((c) => c.method === 'sendMessage' && c.payload.chat_id === user.id);
}

describe('the bot in a group chat', () => {
  let t: TestBot;

  beforeAll(async () => {
    t = await startTestBot({ kind: 'pglite' });
    t.fake.addFile('clip', { path: await toVoiceOgg(join(AUDIO_DIR, 'librispeech-test-clean/1089-134686-0001.wav'), t.workDir) });
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should leave recordings and talk alone unless mentioned, then transcribe the recording a mention replies to, in its thread, charged to who asked', async () => {
    const speaker = testUser(7101, 'Speaker');
    const asker = testUser(7102, 'Asker');
    const ignored = groupVoice(speaker, 'clip');
    const wanted = groupVoice(speaker, 'clip', { is_topic_message: true, message_thread_id: 55 });
    const chatter = groupMessage(speaker, { text: 'anyone there?' });
    t.fake.pushUpdate(ignored);
    t.fake.pushUpdate(wanted);
    t.fake.pushUpdate(chatter);
    await settle(t.fake, testUser(7109));
    expect(t.fake.calls.filter((c) => Number(c.payload.chat_id) === GROUP.id)).toEqual([]);

    const mention = groupMessage(asker, {
      text: `${MENTION} please`,
      entities: [{ type: 'mention', offset: 0, length: MENTION.length }],
      reply_to_message: wanted.message as Message,
      is_topic_message: true,
      message_thread_id: 55,
    });
    t.fake.pushUpdate(mention);
    const status = await t.fake.waitForCall((c) => c.method === 'sendMessage' && answers(t.fake, wanted.message.message_id).includes(c));
    expect(status.payload.message_thread_id).toBe(55);
    const transcript = await transcriptFor(t.fake, wanted.message.message_id);
    expect(String(transcript.payload.text).length).toBeGreaterThan(10);
    expect(answers(t.fake, ignored.message.message_id)).toEqual([]);
    // One message per recording: the status message goes once the transcript is there.
    const statusId = (status.result as { message_id: number }).message_id;
    const deleted = await t.fake.waitForCall((c) => c.method === 'deleteMessage' && c.payload.message_id === statusId);
    expect(Number(deleted.payload.chat_id)).toBe(GROUP.id);
    expect(t.fake.calls.indexOf(transcript)).toBeLessThan(t.fake.calls.indexOf(deleted));
    const left = [...t.fake.messages.values()].filter((message) => message.reply_to_message?.message_id === wanted.message.message_id);
    expect(left.map((message) => message.message_id)).toEqual([(transcript.result as { message_id: number }).message_id]);

    const { db } = t.service.service.ctx.database;
    const [delivery] = await db.select().from(botDeliveries).where(eq(botDeliveries.messageId, wanted.message.message_id));
    expect(delivery).toMatchObject({ chatId: GROUP.id, userId: asker.id, threadId: 55 });
    const [owner] = await db
      .select({ owner: apiKeys.owner })
      .from(predictions)
      .innerJoin(apiKeys, eq(apiKeys.id, predictions.apiKeyId))
      .where(eq(predictions.id, delivery!.predictionId));
    expect(owner?.owner).toBe(`telegram:${asker.id}`);
  }, 150_000);

  it('should show how to ask when mentioned without a recording', async () => {
    const mention = groupMessage(testUser(7103), { text: `hi ${MENTION}` });
    t.fake.pushUpdate(mention);
    const reply = await t.fake.waitForCall((c) => answers(t.fake, mention.message.message_id).includes(c));
    expect(reply.payload.text).toBe(english('group-hint'));
  });

  it('should answer /start and /help in a group with how to ask there', async () => {
    for (const command of ['/start', `/help${MENTION}`]) {
      const update = groupCommand(testUser(7110), command);
      t.fake.pushUpdate(update);
      const reply = await t.fake.waitForCall((c) => answers(t.fake, update.message.message_id).includes(c));
      expect(reply.payload.text).toBe(english('group-help', { bot: FAKE_BOT_USER.username }));
    }
  });

  it('should never show or issue API keys or portal links in a group', async () => {
    const user = testUser(7104);
    for (const command of ['/api', `/api${MENTION}`, '/portal', '/token']) {
      const update = groupCommand(user, command);
      t.fake.pushUpdate(update);
      const reply = await t.fake.waitForCall((c) => answers(t.fake, update.message.message_id).includes(c));
      expect(reply.payload.text).toBe(privateOnlyReply(FAKE_BOT_USER.username, english));
      expect(reply.payload.reply_markup).toBeUndefined();
    }
    const keys = await t.service.service.ctx.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.owner, `telegram:${user.id}`));
    expect(keys).toEqual([]);
  });

  it('should transcribe every recording once a group admin turns that on, and refuse the switch to others', async () => {
    const member = testUser(7105);
    const admin = testUser(7106);
    t.fake.admins.add(admin.id);
    const refused = groupCommand(member, '/autotranscribe on');
    t.fake.pushUpdate(refused);
    expect((await t.fake.waitForCall((c) => answers(t.fake, refused.message.message_id).includes(c))).payload.text).toBe(
      'Only a group admin can change this.',
    );
    const allowed = groupCommand(admin, '/autotranscribe on');
    t.fake.pushUpdate(allowed);
    expect((await t.fake.waitForCall((c) => answers(t.fake, allowed.message.message_id).includes(c))).payload.text).toMatch(
      /^Done: I will transcribe every recording/,
    );
    const voice = groupVoice(member, 'clip');
    t.fake.pushUpdate(voice);
    await transcriptFor(t.fake, voice.message.message_id);
  }, 150_000);

  it('should say the switch is a group setting in a private chat, show the group’s choice, and refuse a non-recording it is asked about', async () => {
    const user = testUser(7108);
    t.fake.pushUpdate(messageUpdate(user, { text: '/autotranscribe on', entities: [{ type: 'bot_command', offset: 0, length: 15 }] }));
    const privately = await t.fake.waitForCall((c) => c.method === 'sendMessage' && c.payload.chat_id === user.id);
    expect(privately.payload.text).toBe('This is a group setting: send it in a group I am a member of.');
    const show = groupCommand(user, '/autotranscribe');
    t.fake.pushUpdate(show);
    const shown = await t.fake.waitForCall((c) => answers(t.fake, show.message.message_id).includes(c));
    expect(shown.payload.text).toMatch(/^I transcribe every recording in this group\. A group admin can change it/);
    const photo = groupMessage(user, { photo: [{ file_id: 'p', file_unique_id: 'p', width: 1, height: 1 }], caption: MENTION });
    t.fake.pushUpdate(photo);
    const refused = await t.fake.waitForCall((c) => answers(t.fake, photo.message.message_id).includes(c));
    expect(refused.payload.text).toMatch(/^I can't transcribe this kind of file/);
  });

  it('should greet a group it is added to with how to ask and what stays private', async () => {
    t.fake.pushUpdate({
      my_chat_member: {
        chat: { id: -42, type: 'group', title: 'New' },
        from: testUser(7107),
        date: Math.floor(Date.now() / 1000),
        old_chat_member: { status: 'left', user: FAKE_BOT_USER },
        new_chat_member: { status: 'member', user: FAKE_BOT_USER },
      },
    } as never);
    const greeting = await t.fake.waitForCall((c) => c.method === 'sendMessage' && Number(c.payload.chat_id) === -42);
    expect(String(greeting.payload.text)).toMatch(/reply to it with a mention of me/);
    expect(String(greeting.payload.text)).toMatch(/private-chat only/);
  });
});
