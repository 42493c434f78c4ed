import type { ServiceContext } from '../../service-context.ts';

/**
 * The public root of the service (`PUBLIC_BASE_URL`, else `http://localhost:PORT`), derived from
 * `config.apiBaseUrl` (`{root}/v1/replicate/v1`). The portal lives at `{root}/portal`.
 */
export function serviceRootUrl(ctx: ServiceContext): string {
  return ctx.config.apiBaseUrl.replace(/\/v1\/replicate\/v1\/?$/, '').replace(/\/+$/, '');
}

/** `{root}/portal/login?token=…`: the address a sign-in link opens. */
export function portalLoginUrl(rootUrl: string, token: string): string {
  return `${rootUrl.replace(/\/+$/, '')}/portal/login?token=${encodeURIComponent(token)}`;
}
