import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const GENERIC_404 = 'No such endpoint. The API lives under /v1/replicate/v1 (see docs/api.md).';
type Json = Record<string, unknown>;

/** Every `$ref` string anywhere in `value`. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner)));
}

describe('OpenAPI document (/openapi.json) and the reference page', () => {
  let test: TestService;
  let document: Json;

  beforeAll(async () => {
    test = await startTestService('postgres', { WORKER_CONCURRENCY: '0' });
    const answer = await fetch(`${test.url}/openapi.json`);
    expect(answer.status).toBe(200);
    document = (await answer.json()) as Json;
  });

  afterAll(async () => {
    await test?.stop();
  });

  const operations = () =>
    Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    );

  it('should be an OpenAPI 3.1 document of this service, without a key', () => {
    expect(document.openapi).toBe('3.1.0');
    expect((document.info as Json).version).toBe('0.17.0');
    expect(document.servers).toEqual([{ url: `http://localhost:${new URL(test.url).port}`, description: 'This service' }]);
    expect(operations().length).toBeGreaterThanOrEqual(17);
  });

  it('should resolve every $ref and give every operation a unique id, a tag and responses', () => {
    const schemas = (document.components as { schemas: Json }).schemas;
    for (const ref of refsIn(document)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(schemas[ref.split('/').at(-1)!], ref).toBeDefined();
    }
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set((document.tags as { name: string }[]).map((tag) => tag.name));
    for (const { path, method, operation } of operations()) {
      expect(
        (operation.tags as string[]).every((tag) => tags.has(tag)),
        `${method} ${path}`,
      ).toBe(true);
      expect(Object.keys(operation.responses as Json).length, `${method} ${path}`).toBeGreaterThan(0);
    }
  });

  it('should describe only routes the service really has', async () => {
    for (const { path, method } of operations()) {
      const answer = await fetch(`${test.url}${path.replace('{id}', 'aaaaaaaaaaaaaaaaaaaaaaaaaa')}`, {
        method: method.toUpperCase(),
        headers: { authorization: `Bearer ${test.key}`, 'content-type': 'application/json' },
        body: method === 'get' || method === 'delete' ? undefined : '{}',
      });
      const text = await answer.text();
      expect(text.includes(GENERIC_404), `${method.toUpperCase()} ${path} answered ${answer.status} ${text}`).toBe(false);
      expect(answer.status, `${method.toUpperCase()} ${path}`).not.toBe(405);
    }
  });

  it('should render every operation and schema on the public reference page', async () => {
    const answer = await fetch(`${test.url}/portal/reference`);
    expect(answer.status).toBe(200);
    const page = await answer.text();
    for (const { operation } of operations()) expect(page).toContain(`id="op-${String(operation.operationId)}"`);
    for (const name of Object.keys((document.components as { schemas: Json }).schemas)) expect(page).toContain(`id="schema-${name}"`);
    expect(page).toContain('<code>post_process</code>');
    expect(page).toContain('One of: summary, gist, detailed');
  });
});
