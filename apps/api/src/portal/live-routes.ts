import { Router } from 'express';
import { html } from './html.ts';
import { LIVE_SOCKET_PATH } from './authenticate-live-socket.ts';
import { sendPage } from './pages/layout.ts';
import { livePage } from './pages/live-page.ts';
import { requireSession } from './portal-guards.ts';
import { readerOf } from './portal-locale.ts';

/**
 * Live (docs/portal.md): the page that transcribes the microphone as the person speaks, through the
 * realtime WebSocket at LIVE_SOCKET_PATH with the session cookie (authenticate-live-socket.ts). Its
 * scripts are static files, as the portal's CSP requires; the socket is same-origin (`default-src 'self'`).
 */
export function liveRoutes(): Router {
  const router = Router();
  router.get('/live', requireSession, (_req, res) => {
    const reader = readerOf(res.locals);
    sendPage(res, {
      title: reader.t('portal-live-title'),
      session: res.locals.portal,
      current: '/portal/live',
      body: livePage(`${LIVE_SOCKET_PATH}?intent=transcription`, reader),
      head: html`<script src="/portal/static/live.js" defer></script>`,
    });
  });
  return router;
}
