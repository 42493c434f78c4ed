import { InputFile, type Api } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import { splitMessage, TELEGRAM_MESSAGE_LIMIT } from './split-message.ts';

/** Text longer than this many characters (three messages) goes as a file instead of messages. */
export const LONG_TEXT_CHARS = 3 * TELEGRAM_MESSAGE_LIMIT;

/** Something to show in the chat: text messages, or one document. */
export type ChatText =
  | { kind: 'messages'; parts: string[] }
  | { kind: 'document'; fileName: string; content: string; caption: string };

/**
 * Text as messages split at 4096 characters on sentence boundaries, or as `fileName` when it is
 * longer than LONG_TEXT_CHARS.
 */
export function asChatText(text: string, fileName: string): ChatText {
  if (text.trim().length > LONG_TEXT_CHARS) {
    return { kind: 'document', fileName, content: text, caption: 'This is long, so here it is as a file.' };
  }
  return { kind: 'messages', parts: splitMessage(text) };
}

/**
 * Sends a ChatText to `chatId`, answering `replyTo` when given, with `keyboard` under the last
 * message or under the document. Returns the id of the last message sent.
 */
export async function sendChatText(
  api: Api,
  chatId: number,
  text: ChatText,
  options: { replyTo?: number; keyboard?: InlineKeyboardMarkup } = {},
): Promise<number> {
  const reply = options.replyTo === undefined ? {} : { reply_parameters: { message_id: options.replyTo, allow_sending_without_reply: true } };
  if (text.kind === 'document') {
    const file = new InputFile(Buffer.from(text.content, 'utf8'), text.fileName);
    const sent = await api.sendDocument(chatId, file, { caption: text.caption, ...reply, reply_markup: options.keyboard });
    return sent.message_id;
  }
  let lastId = 0;
  for (const [index, part] of text.parts.entries()) {
    const last = index === text.parts.length - 1;
    const sent = await api.sendMessage(chatId, part, {
      ...(index === 0 ? reply : {}),
      ...(last && options.keyboard ? { reply_markup: options.keyboard } : {}),
      link_preview_options: { is_disabled: true },
    });
    lastId = sent.message_id;
  }
  return lastId;
}
