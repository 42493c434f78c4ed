/**
 * Where a prediction's recording comes from. Internal only: never returned (spec 2.1).
 * - `link`: an HTTP(S) URL downloaded by the worker.
 * - `upload`: a file the service already holds (multipart, octet-stream, `data:` URI or `/v1/files`).
 */
export type PredictionSource = { kind: 'link'; url: string } | { kind: 'upload'; path: string; bytes: number };
