import { html, type SafeHtml } from '../html.ts';
import type { PortalReader } from '../portal-i18n.ts';

/** The texts live.js shows, in the page's language; `%s` marks where it puts a reason or a time. */
const LIVE_SCRIPT_TEXT_KEYS = [
  'portal-live-start',
  'portal-live-stop',
  'portal-live-status-idle',
  'portal-live-status-mic',
  'portal-live-status-connecting',
  'portal-live-status-listening',
  'portal-live-status-speech',
  'portal-live-status-finishing',
  'portal-live-status-stopped',
  'portal-live-recognising',
  'portal-live-no-words',
  'portal-live-error-insecure',
  'portal-live-error-unsupported',
  'portal-live-error-denied',
  'portal-live-error-no-mic',
  'portal-live-error-connect',
  'portal-live-error-signed-out',
  'portal-live-error-too-many',
];
/** Texts with one variable, handed over with `%s` in its place. */
const LIVE_SCRIPT_TEXTS_WITH_VALUE: Record<string, string> = {
  'portal-live-turn-failed': 'reason',
  'portal-live-error-mic': 'reason',
  'portal-live-error-closed': 'reason',
  'portal-live-error-server': 'message',
};

/**
 * The Live page (docs/portal.md "Live"): a start/stop button, the status, and the phrases with their
 * times, the one being recognised last (its text appears as it arrives). static/live.js does the work
 * (microphone → static/live-worklet.js → 24 kHz PCM16 → the WebSocket at `socketPath`); its words
 * come in `data-texts`. Without JavaScript the page says it needs it.
 */
export function livePage(socketPath: string, { t }: PortalReader): SafeHtml {
  const texts = {
    ...Object.fromEntries(LIVE_SCRIPT_TEXT_KEYS.map((key) => [key, t(key)])),
    ...Object.fromEntries(Object.entries(LIVE_SCRIPT_TEXTS_WITH_VALUE).map(([key, variable]) => [key, t(key, { [variable]: '%s' })])),
  };
  return html`<section id="live" data-socket-path="${socketPath}" data-worklet="/portal/static/live-worklet.js" data-texts="${JSON.stringify(texts)}">
<p>${t('portal-live-intro')}</p>
<noscript><div class="notice error"><p>${t('portal-live-needs-script')}</p></div></noscript>
<div class="live-controls">
  <button type="button" id="live-toggle" class="primary" disabled>${t('portal-live-start')}</button>
  <p id="live-status" role="status">${t('portal-live-status-idle')}</p>
</div>
<div id="live-error" class="notice error" role="alert" tabindex="-1" hidden></div>
<h2>${t('portal-live-turns')}</h2>
<ol id="live-turns" class="transcript" aria-live="polite"></ol>
<p id="live-empty" class="hint">${t('portal-live-no-turns')}</p>
</section>`;
}
