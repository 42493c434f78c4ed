import { expect } from 'vitest';
import { testUser, type FakeBotApi } from './fake-bot-api.ts';
import { commandUpdate, pressButton } from './telegram-updates.ts';

/**
 * Sends /api as Telegram user `userId`, presses "Get token" and returns the key shown and the
 * whole message, as a person would see them (through the fake Bot API server).
 */
export async function pressGetToken(fake: FakeBotApi, userId: number): Promise<{ key: string; text: string; messageId: number }> {
  const user = testUser(userId);
  const before = fake.calls.length;
  fake.pushUpdate(commandUpdate(user, '/api'));
  const menu = await fake.waitForCall((c) => fake.calls.indexOf(c) >= before && c.method === 'sendMessage' && c.payload.chat_id === userId);
  expect(String(menu.payload.text)).toMatch(/^API access/);
  const pressedAt = fake.calls.length;
  pressButton(fake, user, (menu.result as { message_id: number }).message_id, /Get token/);
  const shown = await fake.waitForCall(
    (c) => fake.calls.indexOf(c) >= pressedAt && c.method === 'sendMessage' && /^🔑 Your (new )?API key/.test(String(c.payload.text)),
  );
  const key = /<code>(tsk_[\w-]+)<\/code>/.exec(String(shown.payload.text))?.[1];
  expect(key).toBeDefined();
  expect(shown.payload.parse_mode).toBe('HTML');
  await fake.waitForCall((c) => fake.calls.indexOf(c) >= pressedAt && c.method === 'answerCallbackQuery');
  return { key: key!, text: String(shown.payload.text), messageId: (shown.result as { message_id: number }).message_id };
}
