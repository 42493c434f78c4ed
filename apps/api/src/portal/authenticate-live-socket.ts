import type { IncomingMessage } from 'node:http';
import { AppError, ensureOwnerApiKey, findPortalSession, serviceRootUrl, type ServiceContext } from '@transcribe/core';
import type { RealtimeEntrance } from '../realtime/attach-realtime-server.ts';
import { PORTAL_KEY_LABEL } from './key-routes.ts';
import { readCookie, SESSION_COOKIE } from './portal-session.ts';

/** Where the Live page's WebSocket is served: under /portal, so the browser sends the session cookie (Path=/portal). */
export const LIVE_SOCKET_PATH = '/portal/live/socket';

/**
 * The portal's Live page's way into the realtime WebSocket (docs/live.md, docs/portal.md "Live"):
 * the page's own portal session cookie (HttpOnly, never seen by its script) instead of an API key,
 * on `LIVE_SOCKET_PATH`, from a page of this service only. The session counts against and is charged
 * to the person's newest key (made when they have none, as Transcribe does), in the `portal` namespace.
 */
export function portalLiveEntrance(ctx: ServiceContext): RealtimeEntrance {
  return {
    path: LIVE_SOCKET_PATH,
    namespace: 'portal',
    allowsOrigin: (req) => isSameOrigin(ctx, req),
    async authenticate(req) {
      const session = await findPortalSession(ctx.database.db, readCookie(req, SESSION_COOKIE));
      if (!session) throw new AppError('unauthenticated', 'Your portal sign-in has ended: sign in again with a new link.');
      return ensureOwnerApiKey(ctx.database.db, session.owner, PORTAL_KEY_LABEL);
    },
  };
}

/**
 * True when the upgrade's `Origin` is this service: PUBLIC_BASE_URL's origin, or the host the request
 * was sent to (`Host`). Browsers always send `Origin` on a WebSocket upgrade, and a page of another
 * site cannot forge it; a cookie alone would let any site open a session as the person (cross-site
 * WebSocket hijacking: the handshake is not subject to CORS). No `Origin` is refused too.
 */
export function isSameOrigin(ctx: ServiceContext, req: Pick<IncomingMessage, 'headers'>): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === new URL(serviceRootUrl(ctx)).origin) return true;
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === req.headers.host;
}
