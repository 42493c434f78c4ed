import { Menu } from '@grammyjs/menu';
import { reissueUserApiKey, telegramOwner } from '@transcribe/core';
import type { BotContext, BotDeps } from './bot-context.ts';
import { formatApiKeyMessage } from './format-api-key-message.ts';
import { describeUsage } from './format-usage.ts';
import { BOT_KEY_LABEL } from './transcribe-media.ts';

/**
 * The "API" menu (spec 5.2): "Get token" issues the person's API key (owner `telegram:<id>`),
 * shown once; pressing it again reissues and the old key stops working after the configured grace
 * period, at most 5 minutes (spec 5.3). "Usage" shows what the person used.
 */
export function createApiMenu(deps: BotDeps): Menu<BotContext> {
  const { db } = deps.service.database;
  return new Menu<BotContext>('api')
    .text('🔑 Get token', async (ctx) => {
      if (!ctx.from) return;
      const key = await reissueUserApiKey(db, {
        owner: telegramOwner(ctx.from.id),
        label: BOT_KEY_LABEL,
        graceSeconds: deps.settings.keyGraceSeconds,
        cache: deps.service.apiKeyCache,
        confirmWith: deps.service.database,
      });
      await ctx.reply(formatApiKeyMessage(key, deps.settings.publicApiBaseUrl, deps.settings.keyGraceSeconds), { parse_mode: 'HTML' });
    })
    .text('📊 Usage', async (ctx) => {
      if (!ctx.from) return;
      await ctx.reply(await describeUsage(deps, ctx.from.id));
    });
}
