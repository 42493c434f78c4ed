import { Menu } from '@grammyjs/menu';
import { listOwnerApiKeys, logEvent, reissueUserApiKey, telegramOwner } from '@transcribe/core';
import type { BotContext, BotDeps } from './bot-context.ts';
import { textsFor } from './bot-i18n.ts';
import { formatApiKeyMessage } from './format-api-key-message.ts';
import { describeUsage } from './format-usage.ts';
import { BOT_KEY_LABEL } from './transcribe-media.ts';

/** Label of the keys "Get token" issues (shown to the person once). */
export const ISSUED_KEY_LABEL = 'telegram token';
/** How long after "Delete it later" the message holding a key is deleted, ms. */
export const KEY_MESSAGE_LIFETIME_MS = 10 * 60 * 1000;

/**
 * The "API" menu (spec 5.2): "Get token" issues the person's API key (owner `telegram:<id>`),
 * shown once; pressing it again reissues and the old key stops working after the configured grace
 * period, at most 5 minutes (spec 5.3). "Usage" shows what the person used.
 *
 * Under the key's message are two buttons: delete that message now, or in 10 minutes (time to
 * copy the key). A key left in the chat history is readable by anyone who gets hold of the phone
 * or the account. The delayed deletions are timers of this process: a restart forgets them.
 */
export function createApiMenu(deps: BotDeps): Menu<BotContext> {
  const { db } = deps.service.database;
  const keyMessageMenu = new Menu<BotContext>('api-key')
    .text(
      (ctx) => textsFor(deps, ctx.from)('button-delete-key-now'),
      async (ctx) => {
        await ctx.deleteMessage().catch(() => ctx.reply(textsFor(deps, ctx.from)('key-delete-failed')));
      },
    )
    .text(
      (ctx) => textsFor(deps, ctx.from)('button-delete-key-later'),
      async (ctx) => {
        const chatId = ctx.chat?.id;
        const messageId = ctx.callbackQuery.message?.message_id;
        if (chatId === undefined || messageId === undefined) return;
        setTimeout(() => void deps.api.deleteMessage(chatId, messageId).catch(() => undefined), KEY_MESSAGE_LIFETIME_MS).unref();
        await ctx.answerCallbackQuery({ text: textsFor(deps, ctx.from)('key-delete-later') });
      },
    );
  const menu = new Menu<BotContext>('api')
    .text(
      (ctx) => textsFor(deps, ctx.from)('button-get-token'),
      async (ctx) => {
        if (!ctx.from) return;
        const owner = telegramOwner(ctx.from.id);
        // Keys the bot made on its own to record chat work (BOT_KEY_LABEL) were never shown.
        const replacesShownKey = (await listOwnerApiKeys(db, owner)).some((key) => key.label !== BOT_KEY_LABEL);
        const key = await reissueUserApiKey(db, {
          owner,
          label: ISSUED_KEY_LABEL,
          graceSeconds: deps.settings.keyGraceSeconds,
          cache: deps.service.apiKeyCache,
          confirmWith: deps.service.database,
          // An API process that did not confirm the change keeps the old key until KEY_CACHE_TTL_MS: say so.
          log: (message) => logEvent(deps.service, 'warn', 'keys', message),
        });
        const t = textsFor(deps, ctx.from);
        const text = formatApiKeyMessage(key, deps.settings.publicApiBaseUrl, deps.settings.keyGraceSeconds, replacesShownKey, t);
        await ctx.reply(text, { parse_mode: 'HTML', reply_markup: keyMessageMenu });
      },
    )
    .text(
      (ctx) => textsFor(deps, ctx.from)('button-usage'),
      async (ctx) => {
        if (!ctx.from) return;
        await ctx.reply(await describeUsage(deps, ctx.from));
      },
    );
  menu.register(keyMessageMenu);
  return menu;
}
