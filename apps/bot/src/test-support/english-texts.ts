import { createBotI18n, translatorFor, type Translate } from '../bot-i18n.ts';

/** The bot's English texts by catalog key, for tests that compare what a chat shows. */
export const english: Translate = translatorFor(createBotI18n(), 'en');

/** The bot's Russian texts by catalog key. */
export const russian: Translate = translatorFor(createBotI18n(), 'ru');
