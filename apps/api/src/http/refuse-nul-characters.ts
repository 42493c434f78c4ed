import type { RequestHandler } from 'express';
import { AppError, containsNul } from '@transcribe/core';
import { dataUriHeldNul } from './receive-json-body.ts';

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Refuses NUL characters before they reach the database (hostile input must never cause a 500): in the path
 * (no resource has such a name: 404) and in the query string or a parsed JSON body (422), including
 * the `data:` URI that receiveJsonBody streamed to a file instead of keeping.
 */
export const refuseNulCharacters: RequestHandler = (req, _res, next) => {
  if (decodedPath(req.path).includes('\u0000')) throw new AppError('not_found', 'No such resource.');
  if (containsNul(req.query) || containsNul(req.body) || dataUriHeldNul(req)) {
    throw new AppError('invalid_input', 'The request contains a NUL character (\\u0000), which no parameter may hold.');
  }
  next();
};
