import { Composer, InlineKeyboard } from 'grammy';
import type { BotContext, BotDeps } from './bot-context.ts';
import { isBotLocale, localeFromTelegram, textsFor, translatorFor, type BotLocale } from './bot-i18n.ts';

/** What `/language <word>` may name, by locale: codes, and the names in both languages. */
const LOCALE_WORDS: Record<BotLocale, readonly string[]> = {
  en: ['en', 'eng', 'english', 'английский', 'англ'],
  ru: ['ru', 'rus', 'russian', 'русский', 'рус', 'по-русски'],
};

/** The bot locale `/language <word>` names (`ru`, `Russian`, `русский`, `en-GB`), or null. */
export function localeFromWord(word: string): BotLocale | null {
  const wanted = word.trim().toLowerCase();
  if (wanted === '') return null;
  for (const [locale, words] of Object.entries(LOCALE_WORDS) as [BotLocale, readonly string[]][]) {
    if (words.includes(wanted) || words.includes(wanted.split(/[-_]/)[0]!)) return locale;
  }
  return null;
}

/**
 * /language: buttons English / Русский (`lang:<locale>`); the choice is the person's bot language
 * from then on (deps.locales), whatever their Telegram is set to. `/language ru` (or `russian`,
 * `русский`, `en`, …) chooses at once; an argument it does not know shows the buttons. Without a
 * choice the bot speaks Russian to people whose Telegram is in Russian and English to everyone else.
 */
export function handleLanguage(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command('language', async (ctx) => {
    const named = localeFromWord(ctx.match);
    if (named && ctx.from) {
      deps.locales.set(ctx.from.id, named);
      return void (await ctx.reply(translatorFor(deps.i18n, named)('language-saved')));
    }
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
