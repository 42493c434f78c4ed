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
 */
export function formatApiKeyMessage(key: ReissuedApiKey, publicApiBaseUrl: string, graceSeconds: number): string {
  const base = escapeHtml(publicApiBaseUrl.replace(/\/+$/, ''));
  const lines = [
    '🔑 Your API key. It is shown only this once: store it now, in an environment variable or a secret store, never in source code.',
    `<code>${escapeHtml(key.secret)}</code>`,
    '',
    `Base URL: <code>${base}</code>`,
    'Model: <code>service/transcribe</code>',
    '',
    'Try it:',
    `<pre>curl -X POST ${base}/v1/models/service/transcribe/predictions \\\n  -H "Authorization: Bearer $TRANSCRIBE_API_KEY" \\\n  -F input.audio=@talk.ogg</pre>`,
    'Then read the <code>urls.get</code> address of the answer with the same header until <code>status</code> is <code>succeeded</code>. Prediction clients take the base URL and the key as their token.',
  ];
  if (key.revokedKeyIds.length > 0) lines.push('', `Your previous key stops working ${formatDelay(graceSeconds)}.`);
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
