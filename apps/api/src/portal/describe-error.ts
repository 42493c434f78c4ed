import type { Request, Response } from 'express';
import { handleError } from '../http/map-error.ts';

/**
 * The HTTP status and plain-words detail of an error, as the API's one error mapper
 * (http/map-error.ts) would answer it, so portal pages show the same status and text without a
 * second table of codes. The mapper writes into a stand-in response that only records them.
 */
export function describeError(error: unknown, req: Request): { status: number; detail: string } {
  const seen = { status: 500, detail: 'An internal error occurred. Try again; if it repeats, tell the operator.' };
  const recorder = {
    locals: {}, // sendProblem notes the answered error there for the request's log line
    status(code: number) {
      seen.status = code;
      return recorder;
    },
    type() {
      return recorder;
    },
    set() {
      return recorder; // headers (WWW-Authenticate, Retry-After) do not matter to a page
    },
    send(body: string) {
      seen.detail = String((JSON.parse(body) as { detail?: unknown }).detail ?? seen.detail);
      return recorder;
    },
  };
  handleError(error, req, recorder as unknown as Response, () => {});
  return seen;
}
