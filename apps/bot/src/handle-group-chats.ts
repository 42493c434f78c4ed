import { Composer } from 'grammy';
import { setGroupTranscribeAll, getGroupTranscribeAll } from '@transcribe/core';
import type { BotContext, BotDeps } from './bot-context.ts';

/** Commands that show or change a person's own things (keys, sign-in links, settings, usage). */
export const PRIVATE_ONLY_COMMANDS = ['api', 'portal', 'settings', 'usage'];

/** The reply to a private-only command in a group. */
export function privateOnlyReply(username: string): string {
  return `API keys, portal links, settings and usage are private: I only handle them in a private chat with me. Open @${username} and send the command there.`;
}

/** The greeting when the bot is added to a group. */
export function groupGreeting(username: string): string {
  return [
    'Hi! To have a voice message transcribed here, reply to it with a mention of me (@' +
      username +
      '), or mention me in the caption of a recording.',
    'A group admin can have me transcribe every recording with /autotranscribe on (and stop with /autotranscribe off).',
    'Each transcription is charged to the person who asked. API keys and settings are private-chat only.',
  ].join('\n');
}

/**
 * Group and supergroup behaviour besides recordings (handle-media-message.ts): commands holding a
 * person's keys or links are refused with a pointer to the private chat (a key posted in a group
 * is seen by every member); `/autotranscribe on|off` lets a group admin choose whether every
 * recording is transcribed (stored per group; without an argument it shows the choice); the bot
 * greets a group it is added to with how to ask it. Install before the commands.
 */
export function handleGroupChats(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const groups = composer.chatType(['group', 'supergroup']);
  groups.command(PRIVATE_ONLY_COMMANDS, (ctx) => ctx.reply(privateOnlyReply(ctx.me.username), replyHere(ctx.msg.message_id)));
  groups.command('autotranscribe', async (ctx) => {
    const { db } = deps.service.database;
    const choice = ctx.match.trim().toLowerCase();
    if (choice !== 'on' && choice !== 'off') {
      const all = await getGroupTranscribeAll(db, ctx.chat.id);
      const now = all ? 'I transcribe every recording in this group.' : 'I transcribe recordings only when mentioned or replied to.';
      return void (await ctx.reply(
        `${now} A group admin can change it with /autotranscribe on or /autotranscribe off.`,
        replyHere(ctx.msg.message_id),
      ));
    }
    if (!(await isGroupAdmin(ctx))) {
      return void (await ctx.reply('Only a group admin can change this.', replyHere(ctx.msg.message_id)));
    }
    await setGroupTranscribeAll(db, ctx.chat.id, choice === 'on');
    const done =
      choice === 'on'
        ? 'Done: I will transcribe every recording in this group.'
        : 'Done: I will transcribe recordings only when mentioned or replied to.';
    await ctx.reply(done, replyHere(ctx.msg.message_id));
  });
  composer
    .chatType('private')
    .command('autotranscribe', (ctx) => ctx.reply('This is a group setting: send it in a group I am a member of.'));
  groups.on('my_chat_member', async (ctx) => {
    const { old_chat_member: before, new_chat_member: after } = ctx.myChatMember;
    const joined = ['left', 'kicked'].includes(before.status) && ['member', 'administrator'].includes(after.status);
    if (joined) await ctx.reply(groupGreeting(ctx.me.username));
  });
  return composer;
}

function replyHere(messageId: number) {
  return { reply_parameters: { message_id: messageId, allow_sending_without_reply: true } };
}

/** True when the sender is the group's creator or an admin (an anonymous admin posts as the group itself). */
async function isGroupAdmin(ctx: BotContext): Promise<boolean> {
  if (!ctx.chat || !ctx.from) return false;
  if (ctx.msg?.sender_chat?.id === ctx.chat.id) return true;
  const member = await ctx.getChatMember(ctx.from.id);
  return member.status === 'creator' || member.status === 'administrator';
}
