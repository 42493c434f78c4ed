import type { ReissuedApiKey } from '@transcribe/core';
import type { Translate } from './bot-i18n.ts';

/** Text above the API menu (/api): what the key is for and what reissuing does (spec 5.2, 5.3). */
export function apiMenuText(graceSeconds: number, t: Translate): string {
  return t('api-menu', { delay: formatDelay(graceSeconds, t) });
}

/**
 * The message showing a new key once (spec 5.2), with the client base URL and a short how-to
 * (spec 4.1, 4.3, 5.1, 5.4), in the reader's language (`t`). HTML parse mode; the key and URL are
 * escaped.
 *
 * `replacesShownKey` says whether the person already holds a key they were shown (from this
 * button or the portal). A first key explains what it is and how to keep it; a reissue says when
 * the old key stops (spec 5.3: within 5 minutes). A key the bot made silently to record chat work
 * was never shown, so replacing it is not worth a warning: telling a newcomer that "your previous
 * key" stops only confuses them.
 */
export function formatApiKeyMessage(
  key: ReissuedApiKey,
  publicApiBaseUrl: string,
  graceSeconds: number,
  replacesShownKey: boolean,
  t: Translate,
): string {
  const base = escapeHtml(publicApiBaseUrl.replace(/\/+$/, ''));
  const delay = formatDelay(graceSeconds, t);
  const lines = [
    escapeHtml(t(replacesShownKey ? 'key-reissued' : 'key-first', { delay })),
    escapeHtml(t('key-shown-once')),
    `<code>${escapeHtml(key.secret)}</code>`,
    '',
    `Base URL: <code>${base}</code>`,
    'Model: <code>service/transcribe</code>',
    '',
    escapeHtml(t('key-try-it')),
    `<pre>curl -X POST ${base}/v1/models/service/transcribe/predictions \\\n  -H "Authorization: Bearer $TRANSCRIBE_API_KEY" \\\n  -F input.audio=@talk.ogg</pre>`,
    t('key-then'),
  ];
  return lines.join('\n');
}

/** 0 → `now`; 300 → `in 5 minutes`; 90 → `in 90 seconds` (in the reader's language). */
export function formatDelay(seconds: number, t: Translate): string {
  if (seconds <= 0) return t('delay-now');
  if (seconds % 60 === 0) return t('delay-minutes', { minutes: seconds / 60 });
  return t('delay-seconds', { seconds });
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
