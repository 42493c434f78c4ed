import { Composer, InlineKeyboard } from 'grammy';
import type { BotContext, BotDeps } from './bot-context.ts';
import { isBotLocale, localeFromTelegram, textsFor, translatorFor } from './bot-i18n.ts';

/**
 * /language: buttons English / Русский (`lang:<locale>`); the choice is the person's bot language
 * from then on (deps.locales), whatever their Telegram is set to. Without a choice the bot speaks
 * Russian to people whose Telegram is in Russian and English to everyone else.
 */
export function handleLanguage(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command('language', async (ctx) => {
    const t = textsFor(deps, ctx.from);
    const telegram = t(localeFromTelegram(ctx.from?.language_code) === 'ru' ? 'language-russian' : 'language-english');
    const keyboard = new InlineKeyboard().text(t('language-english'), 'lang:en').text(t('language-russian'), 'lang:ru');
    await ctx.reply(t('language-question', { telegram }), { reply_markup: keyboard });
  });
  composer.callbackQuery(/^lang:/, async (ctx) => {
    const locale = ctx.callbackQuery.data.slice('lang:'.length);
    if (!isBotLocale(locale)) return void (await ctx.answerCallbackQuery({ text: textsFor(deps, ctx.from)('button-gone') }));
    deps.locales.set(ctx.from.id, locale);
    const saved = translatorFor(deps.i18n, locale)('language-saved');
    await ctx.answerCallbackQuery({ text: saved });
    await ctx.editMessageText(saved);
  });
  return composer;
}
