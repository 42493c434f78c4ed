import { describe, expect, it } from 'vitest';
import type { ServiceContext } from '@transcribe/core';
import { isSameOrigin } from './authenticate-live-socket.ts';

/** A service whose PUBLIC_BASE_URL is https://transcribe.example.com (serviceRootUrl reads config.apiBaseUrl). */
const ctx = { config: { apiBaseUrl: 'https://transcribe.example.com/v1/replicate/v1' } } as unknown as ServiceContext;
const upgrade = (headers: Record<string, string>) => ({ headers });

describe('the Live socket’s Origin check', () => {
  it('should take the public address, or the host the request came to, and nothing else', () => {
    // Behind a proxy: the browser's Origin is the public address, the Host the proxy's upstream.
    expect(isSameOrigin(ctx, upgrade({ origin: 'https://transcribe.example.com', host: '10.0.0.5:8080' }))).toBe(true);
    // Reached directly at another address than PUBLIC_BASE_URL: the page's origin is the Host.
    expect(isSameOrigin(ctx, upgrade({ origin: 'http://192.168.1.20:8080', host: '192.168.1.20:8080' }))).toBe(true);
    expect(isSameOrigin(ctx, upgrade({ origin: 'https://evil.example', host: 'transcribe.example.com' }))).toBe(false);
    expect(isSameOrigin(ctx, upgrade({ origin: 'http://192.168.1.20:9999', host: '192.168.1.20:8080' }))).toBe(false); // another port
    expect(isSameOrigin(ctx, upgrade({ origin: 'https://transcribe.example.com.evil.example', host: 'x' }))).toBe(false);
    expect(isSameOrigin(ctx, upgrade({ origin: 'null', host: '192.168.1.20:8080' }))).toBe(false); // sandboxed frame, file:
    expect(isSameOrigin(ctx, upgrade({ host: 'transcribe.example.com' }))).toBe(false); // no Origin: not a browser page
  });
});
