/**
 * The baselines of bench/api-throughput.ts: a bare express 5 app answering from memory with the same
 * JSON the service returns (read once from the BARE_*_JSON files):
 * - `GET /prediction` → 200 with the stored finished prediction (BARE_GET_JSON);
 * - `GET /processing` → 200 with the stored processing prediction (BARE_PROCESSING_JSON, optional);
 * - `POST /predictions` (JSON body parsed) → 201 with the stored create answer (BARE_POST_JSON);
 * - with BARE_DATABASE_URL and BARE_API_KEY_ID, `POST /predictions-floor`: the same transaction as
 *   a service create without the service: JSON body parsed, then in ONE transaction (postgres.js, no
 *   ORM) the prediction row is inserted and its pg-boss job through pg-boss's public
 *   `insert(jobs, { db })` with the transaction as its executor, then 201 with the stored create answer.
 * Listens on 127.0.0.1:BARE_PORT and prints `listening` when ready.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import express from 'express';
import PgBoss from 'pg-boss';
import postgres from 'postgres';

const read = (name: string) => JSON.parse(readFileSync(process.env[name]!, 'utf8')) as unknown;
const getBody = read('BARE_GET_JSON');
const postBody = read('BARE_POST_JSON');
const processingBody = process.env.BARE_PROCESSING_JSON ? read('BARE_PROCESSING_JSON') : null;
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/prediction', (_req, res) => {
  res.json(getBody);
});
if (processingBody) {
  app.get('/processing', (_req, res) => {
    res.json(processingBody);
  });
}
app.post('/predictions', express.json(), (_req, res) => {
  res.status(201).json(postBody);
});
if (process.env.BARE_DATABASE_URL) {
  // JSON parameters given as text are sent as they are (pg-boss's insert passes its jobs as one JSON
  // text), objects as JSON: what drizzle sets up for the service's connections.
  const json = {
    to: 3802,
    from: [114, 3802],
    serialize: (x: unknown) => (typeof x === 'string' ? x : JSON.stringify(x)),
    parse: JSON.parse,
  };
  const sql = postgres(process.env.BARE_DATABASE_URL, { max: 10, onnotice: () => {}, types: { json } });
  // Never started: only its job insert is used, through the executor passed to `insert`.
  const boss = new PgBoss({ db: { executeSql: () => Promise.reject(new Error('unused')) }, schema: 'pgboss' });
  const apiKeyId = process.env.BARE_API_KEY_ID!;
  app.post('/predictions-floor', express.json(), async (req, res) => {
    const input = (req.body as { input: Record<string, unknown> }).input;
    const id = randomBytes(16).toString('hex');
    await sql.begin(async (tx) => {
      await tx`INSERT INTO predictions (id, api_key_id, namespace, status, input, params, source)
        VALUES (${id}, ${apiKeyId}, 'api', 'processing', ${tx.json(input as never)}, ${tx.json(input as never)}, ${tx.json({ kind: 'link', url: input.audio } as never)})
        RETURNING *`;
      // As the service's executor does (platform/jobs/bind-job-executor.ts): undefined → null.
      const executeSql = async (text: string, values: unknown[]) => ({
        rows: Array.from(await tx.unsafe(text, values.map((v) => v ?? null) as never[])),
      });
      await boss.insert([{ name: 'transcribe', data: { predictionId: id }, priority: 0 }], { db: { executeSql } });
    });
    res.status(201).json(postBody);
  });
}
app.listen(Number(process.env.BARE_PORT), '127.0.0.1', () => console.log('listening'));
