import type { Conversation } from '@grammyjs/conversations';
import {
  getBotUserSettings, POST_PROCESS_TYPE_NAMES, saveBotUserSettings, type BotOutputFormat, type BotUserSettings,
} from '@transcribe/core';
import type { BotContext, BotDeps, ConversationContext } from './bot-context.ts';
import {
  choiceKeyboard, DEFAULT_TYPE_CHOICES, describeSettings, FORMAT_CHOICES, languageChoices, parseLanguageText,
  parseSpeakersText, SPEAKER_CHOICES, typesKeyboard, type Choice,
} from './settings-choices.ts';

type SettingsConversation = Conversation<BotContext, ConversationContext>;
type Answer = { kind: 'button'; value: string; ctx: ConversationContext } | { kind: 'text'; text: string; ctx: ConversationContext };

/** A settings question left unanswered this long ends the conversation, ms. */
const ANSWER_TIMEOUT_MS = 15 * 60 * 1000;
/** Spec 8: at most 8 post-processing types. */
const MAX_TYPES = 8;

/**
 * The /settings conversation (issue 8): recognition language, output format, default
 * post-processing types (only with a language model) and the speaker count hint, one question
 * at a time, then saved for the person. /cancel leaves without saving; another command or a
 * recording ends it and is handled as usual.
 */
export function createSettingsConversation(deps: BotDeps) {
  const { db } = deps.service.database;
  const engineLanguages = deps.service.engine.languages;
  return async function settings(conversation: SettingsConversation, ctx: ConversationContext): Promise<void> {
    const userId = ctx.from?.id;
    if (userId === undefined) return;
    const current = await conversation.external(() => getBotUserSettings(db, String(userId)));
    await ctx.reply(`Your settings now:\n${describeSettings(current)}\n\nLet's go through them. Send /cancel to stop without saving.`);
    const language = await askChoice(conversation, ctx, 'lang', 'Which language is spoken in your recordings? You can also type its name.', languageChoices(engineLanguages), (text) => parseLanguageText(text, engineLanguages));
    const format = await askChoice(conversation, ctx, 'fmt', 'How should I send transcripts?', FORMAT_CHOICES);
    const postProcess = deps.postProcess ? await askTypes(conversation, ctx, current.postProcess) : current.postProcess;
    const speakers = await askChoice(conversation, ctx, 'spk', 'How many people usually speak? You can also type a number.', SPEAKER_CHOICES, parseSpeakersText);
    const next: BotUserSettings = {
      language: language === 'auto' ? null : language,
      outputFormat: format as BotOutputFormat,
      postProcess,
      speakers: speakers === 'auto' ? null : Number(speakers),
    };
    await conversation.external(() => saveBotUserSettings(db, String(userId), next));
    await ctx.reply(`Saved. From now on:\n${describeSettings(next)}`);
  };
}

async function askChoice(
  conversation: SettingsConversation,
  ctx: ConversationContext,
  step: string,
  question: string,
  choices: readonly Choice[],
  parseText?: (text: string) => string | null,
): Promise<string> {
  const asked = await ctx.reply(question, { reply_markup: choiceKeyboard(step, choices) });
  for (;;) {
    const answer = await waitForAnswer(conversation, step);
    const value = answer.kind === 'button' ? answer.value : parseText?.(answer.text) ?? null;
    const choice = choices.find((entry) => entry.value === value);
    if (value !== null && (choice || answer.kind === 'text')) {
      await answer.ctx.api.editMessageText(asked.chat.id, asked.message_id, `${question}\n→ ${choice?.label ?? value}`);
      return value;
    }
    await answer.ctx.reply('Please pick one of the buttons above (or /cancel).');
  }
}

async function askTypes(conversation: SettingsConversation, ctx: ConversationContext, initial: readonly string[]): Promise<string[]> {
  const question = `What should I make after every transcript? Tap to choose (at most ${MAX_TYPES}), then Done.`;
  let selected = initial.filter((type) => (DEFAULT_TYPE_CHOICES as readonly string[]).includes(type));
  const asked = await ctx.reply(question, { reply_markup: typesKeyboard(selected) });
  for (;;) {
    const answer = await waitForAnswer(conversation, 'pp');
    if (answer.kind === 'text') {
      await answer.ctx.reply('Tap the buttons above, then Done.');
      continue;
    }
    if (answer.value === 'done') {
      await answer.ctx.api.editMessageText(asked.chat.id, asked.message_id, `${question}\n→ ${selected.length} chosen`);
      return selected;
    }
    const type = POST_PROCESS_TYPE_NAMES[Number(answer.value)];
    if (type === undefined || !DEFAULT_TYPE_CHOICES.includes(type)) continue;
    if (selected.includes(type)) selected = selected.filter((entry) => entry !== type);
    else if (selected.length < MAX_TYPES) selected = [...selected, type];
    await answer.ctx.api.editMessageReplyMarkup(asked.chat.id, asked.message_id, { reply_markup: typesKeyboard(selected) });
  }
}

/**
 * The next answer to question `step`: its button, or a text message. Buttons of earlier questions
 * are answered as closed; /cancel ends without saving; other commands end the conversation and
 * run; anything else (recordings, other buttons) is handled outside while the question waits.
 */
async function waitForAnswer(conversation: SettingsConversation, step: string): Promise<Answer> {
  for (;;) {
    const next = await conversation.wait({ maxMilliseconds: ANSWER_TIMEOUT_MS });
    const data = next.callbackQuery?.data;
    if (data?.startsWith(`set:${step}:`)) {
      await next.answerCallbackQuery();
      return { kind: 'button', value: data.slice(`set:${step}:`.length), ctx: next };
    }
    if (data?.startsWith('set:')) {
      await next.answerCallbackQuery({ text: 'That question is closed.' });
      continue;
    }
    const text = next.message?.text;
    if (text !== undefined && /^\/cancel(@\w+)?$/.test(text.trim())) {
      await next.reply('Settings unchanged.');
      return conversation.halt();
    }
    if (text?.startsWith('/')) return conversation.halt({ next: true });
    if (text !== undefined) return { kind: 'text', text, ctx: next };
    return conversation.skip({ next: true });
  }
}
