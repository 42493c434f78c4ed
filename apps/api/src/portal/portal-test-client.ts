import { createPortalLoginLink, type ServiceContext } from '@transcribe/core';

/** A browser-like HTTP client for portal tests: keeps cookies by name, never follows redirects. */
export class PortalClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  /** Sends a request with the stored cookies; stores the cookies the answer sets (Max-Age=0 deletes). */
  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(new URL(path, this.baseUrl), { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (!name) continue;
      if (/max-age=0/i.test(line)) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.join('='));
    }
    return response;
  }

  /** Posts an url-encoded form. */
  postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, { method: 'POST', body: new URLSearchParams(fields), headers });
  }

  /** GETs a page and returns its CSRF token (the hidden `csrf` field). */
  async csrfFrom(path: string): Promise<string> {
    const page = await (await this.request(path)).text();
    const token = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
    if (!token) throw new Error(`no csrf field on ${path}`);
    return token;
  }
}

/** Opens a one-time link's page and presses "Sign in"; returns the answer to the post (303 on success). */
export async function followLoginLink(client: PortalClient, url: string): Promise<Response> {
  const page = await (await client.request(url)).text();
  const token = new URL(url).searchParams.get('token') ?? '';
  const formToken = /name="login_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  return client.postForm('/portal/login', { token, login_csrf: formToken });
}

/** A client signed in as `owner` through a real one-time link. */
export async function signedInClient(ctx: ServiceContext, baseUrl: string, owner: string): Promise<PortalClient> {
  const client = new PortalClient(baseUrl);
  const link = await createPortalLoginLink(ctx, owner);
  const answer = await followLoginLink(client, link.url.replace(/^https?:\/\/[^/]+/, baseUrl));
  if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}`);
  return client;
}
