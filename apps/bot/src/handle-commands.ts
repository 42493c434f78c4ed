import { Composer } from 'grammy';
import type { BotCommand } from 'grammy/types';
import { createPortalLoginLink, formatMebibytes, telegramOwner } from '@transcribe/core';
import type { Menu } from '@grammyjs/menu';
import type { BotContext, BotDeps } from './bot-context.ts';
import { textsFor, type Translate } from './bot-i18n.ts';
import { apiMenuText } from './format-api-key-message.ts';
import { describeUsage } from './format-usage.ts';
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

/** /start, /help, /api (with the API menu), /settings (the conversation), /usage, /portal and /language (/cancel: handle-cancel.ts). */
export function handleCommands(deps: BotDeps, apiMenu: Menu<BotContext>): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.use(handleLanguage(deps));
  composer.command(['start', 'help'], (ctx) => ctx.reply(helpText(deps, textsFor(deps, ctx.from))));
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
    const link = await createPortalLoginLink(deps.service, telegramOwner(ctx.from.id));
    const minutes = Math.round((link.expiresAt.getTime() - Date.now()) / 60_000);
    await ctx.reply(textsFor(deps, ctx.from)('portal-link', { minutes, url: link.url }));
  });
  return composer;
}
