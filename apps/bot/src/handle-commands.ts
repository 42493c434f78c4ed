import { Composer } from 'grammy';
import type { BotCommand } from 'grammy/types';
import { createPortalLoginLink, formatMebibytes, saveBotUserProfile, telegramOwner } from '@transcribe/core';
import type { Menu } from '@grammyjs/menu';
import type { BotContext, BotDeps } from './bot-context.ts';
import { localeOf, textsFor, type Translate } from './bot-i18n.ts';
import { apiMenuText } from './format-api-key-message.ts';
import { describeUsage } from './format-usage.ts';
import { groupGreeting } from './handle-group-chats.ts';
import { handleLanguage } from './handle-language.ts';

/** The commands registered with Telegram (setMyCommands, per language) and shown by /help: name and catalog key of the description. */
const COMMANDS: readonly [string, string][] = [
  ['help', 'command-help'],
  ['settings', 'command-settings'],
  ['usage', 'command-usage'],
  ['api', 'command-api'],
  ['portal', 'command-portal'],
  ['cancel', 'command-cancel'],
  ['language', 'command-language'],
];

/** The command list in one language (`t`). */
export function botCommands(t: Translate): BotCommand[] {
  return COMMANDS.map(([command, key]) => ({ command, description: t(key) }));
}

/** The /start and /help reply, in the reader's language. */
export function helpText(deps: BotDeps, t: Translate): string {
  const limit = formatMebibytes(deps.settings.maxFileBytes);
  return [
    t('help-intro'),
    t(deps.postProcess ? 'help-limits-with-llm' : 'help-limits-without-llm', { limit }),
    '',
    ...botCommands(t).map((entry) => `/${entry.command} – ${entry.description}`),
  ].join('\n');
}

/**
 * /start, /help (in a group: how to ask the bot there), /api (with the API menu), /token (a pointer
 * to /api), /settings (the conversation), /usage, /portal and /language (/cancel: handle-cancel.ts).
 */
export function handleCommands(deps: BotDeps, apiMenu: Menu<BotContext>): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.use(handleLanguage(deps));
  composer.command(['start', 'help'], (ctx) => {
    const t = textsFor(deps, ctx.from);
    // In a group the private-chat help (keys, settings) is beside the point: say how to ask here.
    if (ctx.chat.type === 'group' || ctx.chat.type === 'supergroup') {
      const here = { reply_parameters: { message_id: ctx.msg.message_id, allow_sending_without_reply: true } };
      return ctx.reply(groupGreeting(ctx.me.username, t), here);
    }
    return ctx.reply(helpText(deps, t));
  });
  // People who know other bots type /token for a key: it lives under /api.
  composer.command(['token', 'key', 'apikey'], (ctx) => ctx.reply(textsFor(deps, ctx.from)('token-see-api')));
  composer.command('api', (ctx) =>
    ctx.reply(apiMenuText(deps.settings.keyGraceSeconds, textsFor(deps, ctx.from)), { reply_markup: apiMenu }),
  );
  composer.command('settings', (ctx) => ctx.conversation.enter('settings'));
  composer.command('usage', async (ctx) => {
    if (!ctx.from) return;
    await ctx.reply(await describeUsage(deps, ctx.from));
  });
  composer.command('portal', async (ctx) => {
    if (!ctx.from) return;
    // The portal greets the person by name and speaks their bot language (apps/api portal-locale.ts).
    const displayName = [ctx.from.first_name, ctx.from.last_name].filter(Boolean).join(' ');
    await saveBotUserProfile(deps.service.database.db, String(ctx.from.id), {
      displayName,
      telegramLanguage: ctx.from.language_code ?? null,
    });
    const link = await createPortalLoginLink(deps.service, telegramOwner(ctx.from.id));
    const minutes = Math.round((link.expiresAt.getTime() - Date.now()) / 60_000);
    // The sign-in page is shown before there is a session: the link says which language to show it in.
    const url = `${link.url}&lang=${localeOf(deps.locales, ctx.from)}`;
    await ctx.reply(textsFor(deps, ctx.from)('portal-link', { minutes, url }));
  });
  return composer;
}
