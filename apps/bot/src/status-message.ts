import type { Api } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';

/** The one status message of a job, edited as stages finish, so the chat is not flooded. */
export interface StatusMessage {
  readonly messageId: number;
  /**
   * Shows `text` (with `keyboard` under it, e.g. ✖ Cancel; without one the buttons go). Unchanged
   * text is not sent again; a progress edit closer than the minimum interval to the last one waits
   * until the interval has passed (a newer update replaces it). `final` edits always go out at once,
   * and when the edit fails the text is sent as a new message instead.
   */
  update(text: string, final?: boolean, keyboard?: InlineKeyboardMarkup): Promise<void>;
  /**
   * Ends the message once the result it announced is in the chat: deletes it when `remove`, else
   * (or when the deletion fails) shows `summary` alone, without buttons. Progress edits still
   * waiting are dropped, and no new message is ever sent for it.
   */
  close(summary: string, remove: boolean): Promise<void>;
}

/** Where a status message goes: the message it answers and, in a forum supergroup, the topic. */
export interface StatusPlace {
  replyTo?: number | undefined;
  threadId?: number | null | undefined;
  /** Buttons under the first text (e.g. ✖ Cancel while the file is fetched). */
  keyboard?: InlineKeyboardMarkup | undefined;
}

/**
 * Sends the first status text (as a reply to `place.replyTo` when given, in topic `place.threadId`)
 * and returns its handle. Telegram allows about one edit per second per chat, hence
 * `minIntervalMs` (default 1000 ms).
 */
export async function openStatusMessage(
  api: Api,
  chatId: number,
  replyTo: number | StatusPlace | undefined,
  text: string,
  minIntervalMs = 1000,
): Promise<StatusMessage> {
  const place: StatusPlace = typeof replyTo === 'object' ? replyTo : { replyTo };
  const sent = await api.sendMessage(chatId, text, {
    ...(place.replyTo === undefined ? {} : { reply_parameters: { message_id: place.replyTo, allow_sending_without_reply: true } }),
    ...(place.threadId ? { message_thread_id: place.threadId } : {}),
    ...(place.keyboard ? { reply_markup: place.keyboard } : {}),
  });
  return resumeStatusMessage(api, chatId, sent.message_id, text, minIntervalMs);
}

/**
 * The handle of status message `messageId` sent earlier (by this run of the bot, or by one before
 * a restart, whose text is then unknown: pass `shown` null).
 */
export function resumeStatusMessage(
  api: Api,
  chatId: number,
  messageId: number,
  shown: string | null,
  minIntervalMs = 1000,
): StatusMessage {
  let current = shown;
  let lastEditAt = shown === null ? 0 : Date.now();
  let trailing: NodeJS.Timeout | null = null;
  let latest = 0;
  const edit = async (next: string, final: boolean, keyboard: InlineKeyboardMarkup | undefined) => {
    lastEditAt = Date.now();
    try {
      await api.editMessageText(chatId, messageId, next, keyboard ? { reply_markup: keyboard } : {});
      current = next;
    } catch {
      // Progress edits may fail (message deleted, rate limit): the next one tries again.
      if (!final) return;
      await api.sendMessage(chatId, next);
      current = next;
    }
  };
  return {
    messageId,
    async update(next, final = false, keyboard) {
      const call = ++latest;
      if (trailing) clearTimeout(trailing);
      trailing = null;
      if (next === current) return;
      const wait = minIntervalMs - (Date.now() - lastEditAt);
      if (!final && wait > 0) {
        // Shown once the interval has passed, unless a newer update comes first: a state that then
        // stays the same (a recording waiting in the queue) is not left unshown.
        trailing = setTimeout(() => {
          trailing = null;
          if (call === latest) void edit(next, false, keyboard);
        }, wait);
        trailing.unref();
        return;
      }
      await edit(next, final, keyboard);
    },
    async close(summary, remove) {
      ++latest;
      if (trailing) clearTimeout(trailing);
      trailing = null;
      if (remove) {
        const deleted = await api.deleteMessage(chatId, messageId).then(
          () => true,
          () => false,
        );
        if (deleted) return;
      }
      if (summary === current) return;
      await api.editMessageText(chatId, messageId, summary).then(
        () => void (current = summary),
        () => undefined, // a status message someone deleted: nothing to shrink
      );
    },
  };
}
