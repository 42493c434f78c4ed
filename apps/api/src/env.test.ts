import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkEnv, ENV_VARIABLES, parseEnv } from './env.ts';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The rows of README's configuration table: variable → the default cell as written. */
function readmeDefaults(): Map<string, string> {
  const table = README.slice(README.indexOf('| variable | default | meaning |'));
  const rows = new Map<string, string>();
  for (const line of table.split('\n').slice(2)) {
    const cells = /^\| `([A-Z_0-9]+)` \| ([^|]+) \|/.exec(line);
    if (!cells) break;
    rows.set(cells[1]!, cells[2]!.trim());
  }
  return rows;
}

/** How a default is written in the table: `value` in backticks, `""` for an empty string, `–` when unset. */
function shown(value: unknown): string {
  if (value === undefined) return '–';
  if (typeof value === 'boolean') return value ? '`1`' : '`0`';
  return value === '' ? '`""`' : `\`${String(value)}\``;
}

describe("README's configuration table", () => {
  it('should list every variable the service reads, and nothing else', () => {
    expect([...readmeDefaults().keys()].sort()).toEqual([...ENV_VARIABLES].sort());
  });

  it('should give each variable its true default', () => {
    const defaults = parseEnv({}) as Record<string, unknown>;
    const rows = readmeDefaults();
    for (const name of ENV_VARIABLES) expect(rows.get(name), name).toBe(shown(defaults[name]));
  });
});

describe('URL variables', () => {
  it.each(['PUBLIC_BASE_URL', 'ASR_BASE_URL', 'LLM_BASE_URL', 'TELEGRAM_API_ROOT', 'BOT_WEBHOOK_URL', 'S3_ENDPOINT'])(
    'should refuse %s without a scheme at start, naming the variable and the rule',
    (name) => {
      expect(checkEnv({ [name]: 'localhost:8080' }).problems).toEqual([
        `Invalid environment variable ${name}: must start with http:// or https:// (for example http://localhost:8080)`,
      ]);
      expect(checkEnv({ [name]: 'https://example.com/v1' }).problems).toEqual([]);
    },
  );

  it('should refuse a MODELS_AUTO_INSTALL mirror without a scheme, naming the variable', () => {
    const { problems } = checkEnv({ MODELS_AUTO_INSTALL: 'mirror.example.com/releases' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^Invalid environment variable MODELS_AUTO_INSTALL: /);
    expect(checkEnv({ MODELS_AUTO_INSTALL: 'https://mirror.example.com/releases' }).problems).toEqual([]);
  });
});

describe('TRUST_PROXY', () => {
  it('should trust no proxy unless told, and take a number of proxies or their addresses', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8,192.0.2.1' }).TRUST_PROXY).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.0.2.1',
    ]);
  });

  it('should refuse true (any client could name its own address) and what is not an address, naming the variable', () => {
    expect(checkEnv({ TRUST_PROXY: 'true' }).problems).toEqual([
      'Invalid environment variable TRUST_PROXY: true would trust an X-Forwarded-For the client writes itself; give the number of proxies in front (e.g. 1) or their addresses (e.g. loopback or 10.0.0.0/8)',
    ]);
    for (const wrong of ['10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/1']) {
      expect(checkEnv({ TRUST_PROXY: wrong }).problems[0]).toMatch(/^Invalid environment variable TRUST_PROXY: ".+" is not an IP address/);
    }
  });
});
