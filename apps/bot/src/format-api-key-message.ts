import type { ReissuedApiKey } from '@transcribe/core';
import type { Translate } from './bot-i18n.ts';

/** Text above the API menu (/api): what the key is for and what reissuing does (spec 5.2, 5.3). */
export function apiMenuText(graceSeconds: number, t: Translate): string {
  return t('api-menu', { delay: formatDelay(graceSeconds, t) });
}

/**
 * The base URL each kind of client takes, from the Replicate-compatible base `{root}/v1/replicate`
 * (docs/api.md, docs/openai-api.md): the Python `replicate` client's `base_url` is that base (it adds
 * `/v1/…`), the npm `replicate` client's `baseUrl` is `{base}/v1` (it adds only `/…`), and the
 * OpenAI SDKs' `baseURL` is `{root}/v1` (the OpenAI-compatible `/v1/audio/transcriptions`). The
 * portal shows the same three (apps/api portal pages/client-examples.ts).
 */
export function clientBaseUrls(publicApiBaseUrl: string): { python: string; npm: string; openai: string } {
  const python = publicApiBaseUrl.replace(/\/+$/, '');
  const root = python.replace(/\/v1\/replicate$/, '');
  return { python, npm: `${python}/v1`, openai: `${root}/v1` };
}

/**
 * The message showing a new key once (spec 5.2), with the base URL of each client (the portal
 * gives the same ones), the OpenAI-compatible endpoint, and a curl how-to whose first line puts
 * the key into the environment variable the rest reads (spec 4.1, 4.3, 5.1, 5.4), in the reader's
 * language (`t`). HTML parse mode; the key and URLs are escaped.
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
  const urls = clientBaseUrls(publicApiBaseUrl);
  const [python, npm, openai] = [urls.python, urls.npm, urls.openai].map(escapeHtml);
  const delay = formatDelay(graceSeconds, t);
  const secret = escapeHtml(key.secret);
  const lines = [
    escapeHtml(t(replacesShownKey ? 'key-reissued' : 'key-first', { delay })),
    escapeHtml(t('key-shown-once')),
    `<code>${secret}</code>`,
    '',
    escapeHtml(t('key-base-urls')),
    `• ${escapeHtml(t('key-client-python'))} <code>base_url="${python}"</code>`,
    `• ${escapeHtml(t('key-client-npm'))} <code>baseUrl: "${npm}"</code>`,
    `• ${escapeHtml(t('key-client-openai'))} <code>baseURL: "${openai}"</code>`,
    `${escapeHtml(t('key-model'))} <code>service/transcribe</code> (${escapeHtml(t('key-model-openai'))} <code>whisper-1</code>)`,
    '',
    escapeHtml(t('key-try-it')),
    `<pre>export TRANSCRIBE_API_KEY="${secret}"\ncurl -X POST ${npm}/models/service/transcribe/predictions \\\n  -H "Authorization: Bearer $TRANSCRIBE_API_KEY" \\\n  -F input.audio=@talk.ogg</pre>`,
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
