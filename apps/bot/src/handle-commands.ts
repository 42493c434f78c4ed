import { Composer } from 'grammy';
import type { BotCommand } from 'grammy/types';
import { createPortalLoginLink, formatMebibytes, telegramOwner } from '@transcribe/core';
import type { Menu } from '@grammyjs/menu';
import type { BotContext, BotDeps } from './bot-context.ts';
import { apiMenuText } from './format-api-key-message.ts';
import { describeUsage } from './format-usage.ts';

/** The command list registered with Telegram (setMyCommands) and shown by /help. */
export const BOT_COMMANDS: BotCommand[] = [
  { command: 'help', description: 'What I can do' },
  { command: 'settings', description: 'Language, output format, summaries, speakers' },
  { command: 'usage', description: 'What you have transcribed so far' },
  { command: 'api', description: 'Your API key for the HTTP API' },
  { command: 'portal', description: 'A one-time link to the web portal' },
  { command: 'cancel', description: 'Cancel your recordings waiting or being transcribed' },
];

/** The /start and /help reply. */
export function helpText(deps: BotDeps): string {
  const extras = deps.postProcess
    ? 'Under each transcript there are buttons for a summary, action items, a translation and more.'
    : 'Summaries and translations are not available: this server has no language model.';
  return [
    'Send me a voice message, a video note, or an audio or video file, and I will send back the transcript.',
    `Files up to ${formatMebibytes(deps.settings.maxFileBytes)} are fine. ${extras}`,
    '',
    ...BOT_COMMANDS.map((entry) => `/${entry.command} – ${entry.description}`),
  ].join('\n');
}

/** /start, /help, /api (with the API menu), /settings (the conversation), /usage and /portal (/cancel: handle-cancel.ts). */
export function handleCommands(deps: BotDeps, apiMenu: Menu<BotContext>): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command(['start', 'help'], (ctx) => ctx.reply(helpText(deps)));
  composer.command('api', (ctx) => ctx.reply(apiMenuText(deps.settings.keyGraceSeconds), { reply_markup: apiMenu }));
  composer.command('settings', (ctx) => ctx.conversation.enter('settings'));
  composer.command('usage', async (ctx) => {
    if (!ctx.from) return;
    await ctx.reply(await describeUsage(deps, ctx.from.id));
  });
  composer.command('portal', async (ctx) => {
    if (!ctx.from) return;
    const link = await createPortalLoginLink(deps.service, telegramOwner(ctx.from.id));
    const minutes = Math.round((link.expiresAt.getTime() - Date.now()) / 60_000);
    await ctx.reply(`Your one-time sign-in link to the portal (works once, for ${minutes} minutes):\n${link.url}`);
  });
  return composer;
}
