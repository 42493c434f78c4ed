import type { Api } from 'grammy';

/** The one status message of a job, edited as stages finish, so the chat is not flooded. */
export interface StatusMessage {
  readonly messageId: number;
  /**
   * Shows `text`. Unchanged text is not sent again; progress edits closer together than the
   * minimum interval are dropped (the next poll shows the newer state). `final` edits always go
   * out, and when the edit fails the text is sent as a new message instead.
   */
  update(text: string, final?: boolean): Promise<void>;
}

/**
 * Sends the first status text (as a reply to `replyTo` when given) and returns its handle. Telegram allows
 * about one edit per second per chat, hence `minIntervalMs` (default 1000 ms).
 */
export async function openStatusMessage(
  api: Api,
  chatId: number,
  replyTo: number | undefined,
  text: string,
  minIntervalMs = 1000,
): Promise<StatusMessage> {
  const reply = replyTo === undefined ? {} : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } };
  const sent = await api.sendMessage(chatId, text, reply);
  let shown = text;
  let lastEditAt = Date.now();
  return {
    messageId: sent.message_id,
    async update(next, final = false) {
      if (next === shown) return;
      if (!final && Date.now() - lastEditAt < minIntervalMs) return;
      lastEditAt = Date.now();
      try {
        await api.editMessageText(chatId, sent.message_id, next);
        shown = next;
      } catch {
        // Progress edits may fail (message deleted, rate limit): the next one tries again.
        if (!final) return;
        await api.sendMessage(chatId, next);
        shown = next;
      }
    },
  };
}
