import { conversations, createConversation } from '@grammyjs/conversations';
import type { Bot } from 'grammy';
import type { BotContext, BotDeps } from './bot-context.ts';
import { createApiMenu } from './api-menu.ts';
import { handleCancel } from './handle-cancel.ts';
import { handleCommands } from './handle-commands.ts';
import { handleGroupChats } from './handle-group-chats.ts';
import { handleMediaMessages } from './handle-media-message.ts';
import { handleNameSpeakers } from './handle-name-speakers.ts';
import { handleResultButtons } from './handle-result-buttons.ts';
import { logBotFailure } from './log-bot-failure.ts';
import { textsFor } from './bot-i18n.ts';
import { replyForError } from './reply-for-error.ts';
import { createSettingsConversation } from './settings-conversation.ts';

/**
 * Installs the bot's middleware in order: conversations (the settings conversation sees updates
 * first while active), group rules (private-only commands refused in groups), the API menu, cancel, commands, naming speakers, result buttons, recordings, then a hint for
 * other text. Errors of a handler are logged (the service's structured logger, component `bot`)
 * and answered in plain words.
 */
export function installHandlers(bot: Bot<BotContext>, deps: BotDeps): void {
  bot.use(conversations());
  bot.use(createConversation(createSettingsConversation(deps), 'settings'));
  bot.use(handleGroupChats(deps));
  const apiMenu = createApiMenu(deps);
  bot.use(apiMenu);
  bot.use(handleCancel(deps));
  bot.use(handleCommands(deps, apiMenu));
  bot.use(handleNameSpeakers(deps));
  bot.use(handleResultButtons(deps));
  bot.use(handleMediaMessages(deps));
  bot.chatType('private').on('message:text', (ctx) => ctx.reply(textsFor(deps, ctx.from)('send-a-recording'))); // group talk is not for the bot
  bot.on('callback_query:data', (ctx) => ctx.answerCallbackQuery({ text: textsFor(deps, ctx.from)('button-gone') }));
  bot.catch(async ({ ctx, error }) => {
    logBotFailure(deps.service, 'error', `update ${ctx.update.update_id} failed`, error, { update: ctx.update.update_id });
    if (ctx.chat) await ctx.reply(replyForError(error, deps.settings, textsFor(deps, ctx.from))).catch(() => undefined);
  });
}
