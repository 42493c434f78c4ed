/**
 * The baseline of bench/api-throughput.ts: a bare express 5 app answering from memory with the same
 * JSON the service returns (read once from BARE_GET_JSON and BARE_POST_JSON files): `GET
 * /prediction` → 200 with the stored prediction, `POST /predictions` (JSON body parsed) → 201 with
 * the stored create answer. Listens on 127.0.0.1:BARE_PORT and prints `listening` when ready.
 */
import { readFileSync } from 'node:fs';
import express from 'express';

const getBody = JSON.parse(readFileSync(process.env.BARE_GET_JSON!, 'utf8')) as unknown;
const postBody = JSON.parse(readFileSync(process.env.BARE_POST_JSON!, 'utf8')) as unknown;
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/prediction', (_req, res) => {
  res.json(getBody);
});
app.post('/predictions', express.json(), (_req, res) => {
  res.status(201).json(postBody);
});
app.listen(Number(process.env.BARE_PORT), '127.0.0.1', () => console.log('listening'));
