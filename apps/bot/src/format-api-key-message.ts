import type { ReissuedApiKey } from '@transcribe/core';

/** Text above the API menu (/api): what the key is for and what reissuing does (spec 5.2, 5.3). */
export function apiMenuText(graceSeconds: number): string {
  return [
    'API access',
    'Use the transcription API from your own programs with a personal key. Work done with it counts as yours.',
    `Press “Get token” to get your key. Pressing it again issues a new key, and the previous one stops working ${formatDelay(graceSeconds)}.`,
  ].join('\n\n');
}

/**
 * The message showing a new key once (spec 5.2), with the client base URL and a short how-to
 * (spec 4.1, 4.3, 5.1, 5.4). HTML parse mode; the key and URL are escaped.
 *
 * `replacesShownKey` says whether the person already holds a key they were shown (from this
 * button or the portal). A first key explains what it is and how to keep it; a reissue says when
 * the old key stops (spec 5.3: within 5 minutes). A key the bot made silently to record chat work
 * was never shown, so replacing it is not worth a warning: telling a newcomer that "your previous
 * key" stops only confuses them.
 */
export function formatApiKeyMessage(key: ReissuedApiKey, publicApiBaseUrl: string, graceSeconds: number, replacesShownKey = true): string {
  const base = escapeHtml(publicApiBaseUrl.replace(/\/+$/, ''));
  const intro = replacesShownKey
    ? [`🔑 Your new API key. Your previous key stops working ${formatDelay(graceSeconds)}: put the new one wherever the old one was used.`]
    : [
      '🔑 Your API key. With it, your own programs (scripts, apps, automations) can send recordings to the transcription API; what they transcribe counts as your usage, like the recordings you send here.',
      `Keep it like a password: in a password manager, an environment variable or a secret store, never in source code or a shared chat. If it leaks, press “Get token” again: you get a new key and this one stops working ${formatDelay(graceSeconds)}.`,
    ];
  const lines = [
    ...intro,
    'It is shown only this once: store it now.',
    `<code>${escapeHtml(key.secret)}</code>`,
    '',
    `Base URL: <code>${base}</code>`,
    'Model: <code>service/transcribe</code>',
    '',
    'Try it:',
    `<pre>curl -X POST ${base}/v1/models/service/transcribe/predictions \\\n  -H "Authorization: Bearer $TRANSCRIBE_API_KEY" \\\n  -F input.audio=@talk.ogg</pre>`,
    'Then read the <code>urls.get</code> address of the answer with the same header until <code>status</code> is <code>succeeded</code>. Prediction clients take the base URL and the key as their token.',
  ];
  return lines.join('\n');
}

/** 0 → `now`; 300 → `in 5 minutes`; 90 → `in 90 seconds`. */
export function formatDelay(seconds: number): string {
  if (seconds <= 0) return 'now';
  if (seconds % 60 === 0) return `in ${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `in ${seconds} seconds`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
