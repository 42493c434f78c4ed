import type { RequestHandler } from 'express';
import { AppError, containsNul } from '@transcribe/core';

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Refuses NUL characters before they reach the database (issue 9, hostile input): in the path
 * (no resource has such a name: 404) and in the query string or a parsed JSON body (422).
 */
export const refuseNulCharacters: RequestHandler = (req, _res, next) => {
  if (decodedPath(req.path).includes('\u0000')) throw new AppError('not_found', 'No such resource.');
  if (containsNul(req.query) || containsNul(req.body)) {
    throw new AppError('invalid_input', 'The request contains a NUL character (\\u0000), which no parameter may hold.');
  }
  next();
};
