import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where a request may be built from Node's HTTP client: the outbound HTTP folder only. */
const TRANSPORT = 'packages/core/src/platform/http/';
/**
 * Production files allowed a plain global `fetch`: calls of the service's own loopback routes by its
 * CLIs (apikey, portal), a docs script that calls a local test service, and the portal's test client.
 * None of them fetches anything a user or a remote host chose.
 */
const LOOPBACK_FETCH = new Set([
  'apps/api/src/cli/apikey.ts',
  'apps/api/src/cli/portal.ts',
  'apps/api/src/scripts/render-format-examples.ts',
  'apps/api/src/portal/portal-test-client.ts',
]);

/** Production source files of every workspace (`src/`, without tests and their helpers), relative to the root. */
function productionSources(): string[] {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(ROOT, group)).flatMap((workspace) => {
      const src = join(ROOT, group, workspace, 'src');
      let names: string[];
      try {
        names = readdirSync(src, { recursive: true, encoding: 'utf8' });
      } catch {
        return [];
      }
      return names
        .filter((name) => name.endsWith('.ts') && !/\.test\.ts$|\.test-helper\.ts$|\.tmp\.ts$/.test(name))
        .filter((name) => !/(^|\/)(test-support|testing|__fixtures__)\//.test(name))
        .map((name) => relative(ROOT, join(src, name)));
    }),
  );
}

/**
 * docs/architecture.md, "Outbound HTTP": every request the service sends goes through
 * packages/core/src/platform/http, on Node's own client with the address checks, and never through
 * undici, whose HTTP/1 parser crashes the process on Node 20 when a server closes the connection
 * right after a slowly read body (docs/reliability.md, "Outbound HTTP client").
 */
describe('outbound HTTP', () => {
  const files = productionSources().map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));

  it('should find the production sources', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('should never import undici', () => {
    expect(files.filter(({ text }) => /from\s+['"]undici['"]|require\(['"]undici['"]\)/.test(text)).map(({ file }) => file)).toEqual([]);
  });

  it("should build requests with Node's http client in platform/http only", () => {
    const clients = files.filter(({ file, text }) => !file.startsWith(TRANSPORT) && /\bhttps?\.(request|get)\(/.test(text));
    expect(clients.map(({ file }) => file)).toEqual([]);
  });

  it('should fetch through the outbound client, except the loopback calls of the CLIs', () => {
    const plain = files.filter(
      ({ file, text }) =>
        !file.startsWith(TRANSPORT) &&
        !LOOPBACK_FETCH.has(file) &&
        /(^|[^.\w])fetch\(/m.test(text) &&
        !/\bOutboundFetch\b|\bcreateOutboundFetch\b/.test(text),
    );
    expect(plain.map(({ file }) => file)).toEqual([]);
  });
});
