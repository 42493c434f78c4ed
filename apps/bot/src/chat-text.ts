import { InputFile, type Api } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { Translate } from './bot-i18n.ts';
import { splitMessage, TELEGRAM_MESSAGE_LIMIT } from './split-message.ts';

/** Characters of the preview shown in chat above a text sent as a file. */
export const PREVIEW_CHARS = 600;
/** Telegram's limit on a document's caption, characters (Bot API sendDocument). */
export const CAPTION_LIMIT = 1024;

/** A stretch of a text: `offset` and `length` in UTF-16 code units, as Telegram's message entities count. */
export interface TextRange {
  offset: number;
  length: number;
}

/**
 * Something to show in the chat: text messages (with `italics`, per part, the ranges sent as
 * Telegram `italic` entities), or one document (`content` as UTF-8 text or bytes), with `preview`
 * (plain text) sent as a message before it when set.
 */
export type ChatText =
  | { kind: 'messages'; parts: string[]; italics?: TextRange[][] }
  | { kind: 'document'; fileName: string; content: string | Uint8Array; caption: string; preview?: string };

/**
 * Text that fits one message (Telegram's 4096 characters) as that message; longer text as a short
 * preview (the first PREVIEW_CHARS or so, cut at a sentence end) plus the whole text as
 * `fileName`. A wall of several messages is hard to read, copy or forward; a file keeps the whole
 * text in one piece and the preview still shows what it is about. `fileContent` is what the file
 * holds when it should differ from the chat text (a transcript's running text in chat, one line
 * per segment in the file). `italics` are ranges of `text` shown in italics in the messages (each
 * part gets the pieces of them that fall in it); a preview carries none.
 */
export function asChatText(text: string, fileName: string, t: Translate, fileContent = text, italics: readonly TextRange[] = []): ChatText {
  const trimmed = text.trim();
  if (trimmed.length <= TELEGRAM_MESSAGE_LIMIT) {
    const parts = splitMessage(trimmed);
    if (italics.length === 0) return { kind: 'messages', parts };
    const lead = text.length - text.trimStart().length;
    return {
      kind: 'messages',
      parts,
      italics: rangesPerPart(
        trimmed,
        parts,
        italics.map((r) => ({ ...r, offset: r.offset - lead })),
      ),
    };
  }
  const preview = `${splitMessage(trimmed, PREVIEW_CHARS)[0] ?? ''} …`;
  const caption = t('long-text-caption', { chars: trimmed.length });
  return { kind: 'document', fileName, content: fileContent, caption, preview };
}

/** The ranges of `text` (whose parts, in order, are substrings) cut to each part, relative to it. */
function rangesPerPart(text: string, parts: readonly string[], ranges: readonly TextRange[]): TextRange[][] {
  let cursor = 0;
  return parts.map((part) => {
    const at = text.indexOf(part, cursor);
    cursor = at + part.length;
    return ranges
      .map((range) => {
        const start = Math.max(range.offset, at);
        const end = Math.min(range.offset + range.length, at + part.length);
        return { offset: start - at, length: end - start };
      })
      .filter((range) => range.length > 0);
  });
}

/**
 * Sends a ChatText to `chatId`, answering `replyTo` when given (the preview and the document both
 * answer it), with `keyboard` under the last message or under the document. With `previewInCaption`
 * (groups, where each recording should leave one message) the preview goes above the document's
 * caption instead of into a message of its own. Returns the id of the last message sent.
 */
export async function sendChatText(
  api: Api,
  chatId: number,
  text: ChatText,
  options: { replyTo?: number; keyboard?: InlineKeyboardMarkup; previewInCaption?: boolean } = {},
): Promise<number> {
  const reply =
    options.replyTo === undefined ? {} : { reply_parameters: { message_id: options.replyTo, allow_sending_without_reply: true } };
  if (text.kind === 'document') {
    let caption = text.caption;
    if (text.preview && options.previewInCaption) caption = `${text.preview}\n\n${caption}`.slice(0, CAPTION_LIMIT);
    else if (text.preview) await api.sendMessage(chatId, text.preview, { ...reply, link_preview_options: { is_disabled: true } });
    const content = typeof text.content === 'string' ? Buffer.from(text.content, 'utf8') : text.content;
    const file = new InputFile(content, text.fileName);
    const sent = await api.sendDocument(chatId, file, { caption, ...reply, reply_markup: options.keyboard });
    return sent.message_id;
  }
  let lastId = 0;
  for (const [index, part] of text.parts.entries()) {
    const last = index === text.parts.length - 1;
    const italics = text.italics?.[index] ?? [];
    const sent = await api.sendMessage(chatId, part, {
      ...(index === 0 ? reply : {}),
      ...(italics.length > 0 ? { entities: italics.map((range) => ({ type: 'italic' as const, ...range })) } : {}),
      ...(last && options.keyboard ? { reply_markup: options.keyboard } : {}),
      link_preview_options: { is_disabled: true },
    });
    lastId = sent.message_id;
  }
  return lastId;
}
