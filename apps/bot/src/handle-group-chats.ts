import { Composer } from 'grammy';
import { setGroupTranscribeAll, getGroupTranscribeAll } from '@transcribe/core';
import type { BotContext, BotDeps } from './bot-context.ts';
import { textsFor, type Translate } from './bot-i18n.ts';

/** Commands that show or change a person's own things (keys, sign-in links, settings, usage). */
export const PRIVATE_ONLY_COMMANDS = ['api', 'portal', 'settings', 'usage', 'token', 'key', 'apikey'];

/** The reply to a private-only command in a group, in the reader's language. */
export function privateOnlyReply(username: string, t: Translate): string {
  return t('group-private-only', { bot: username });
}

/** The greeting when the bot is added to a group (in the language of whoever added it). */
export function groupGreeting(username: string, t: Translate): string {
  return t('group-help', { bot: username });
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
  groups.command(PRIVATE_ONLY_COMMANDS, (ctx) =>
    ctx.reply(privateOnlyReply(ctx.me.username, textsFor(deps, ctx.from)), replyHere(ctx.msg.message_id)),
  );
  groups.command('autotranscribe', async (ctx) => {
    const { db } = deps.service.database;
    const t = textsFor(deps, ctx.from);
    const choice = ctx.match.trim().toLowerCase();
    if (choice !== 'on' && choice !== 'off') {
      const all = await getGroupTranscribeAll(db, ctx.chat.id);
      const now = t(all ? 'group-transcribe-all-now' : 'group-transcribe-mentioned-now');
      return void (await ctx.reply(`${now} ${t('group-admin-can-change')}`, replyHere(ctx.msg.message_id)));
    }
    if (!(await isGroupAdmin(ctx))) {
      return void (await ctx.reply(t('group-admins-only'), replyHere(ctx.msg.message_id)));
    }
    await setGroupTranscribeAll(db, ctx.chat.id, choice === 'on');
    const done = t(choice === 'on' ? 'group-transcribe-all-done' : 'group-transcribe-mentioned-done');
    await ctx.reply(done, replyHere(ctx.msg.message_id));
  });
  composer.chatType('private').command('autotranscribe', (ctx) => ctx.reply(textsFor(deps, ctx.from)('group-setting-in-private')));
  groups.on('my_chat_member', async (ctx) => {
    const { old_chat_member: before, new_chat_member: after } = ctx.myChatMember;
    const joined = ['left', 'kicked'].includes(before.status) && ['member', 'administrator'].includes(after.status);
    if (joined) await ctx.reply(groupGreeting(ctx.me.username, textsFor(deps, ctx.from)));
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
