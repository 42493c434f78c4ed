import path from 'node:path';

/**
 * An absolute path inside a message: a `/` that starts a word (after a space, a bracket, a quote,
 * `:` or `=`, or at the start) and is not the `//` of a URL, up to the next space, quote, bracket,
 * comma or semicolon. A URL's own path (`https://host/a/b`) never starts a word, so it is kept.
 */
const ABSOLUTE_PATH = /(^|[\s([{:'"`=])(\/(?!\/)[^\s'"`,;()[\]{}]+)/g;

/**
 * `message` with every absolute file path of this server cut to its last part: a model file's
 * name (`/srv/models/sherpa-onnx-whisper-tiny/tiny-decoder.int8.onnx` → `tiny-decoder.int8.onnx`),
 * a folder's name. For what API clients read (a prediction's `error` and log lines): where the
 * server keeps its files is none of their business and helps an attacker; the file's name says
 * what is wrong as well. The operator's log keeps the full message.
 * @example hideServerPaths('Load model from /m/x/enc.onnx failed') === 'Load model from enc.onnx failed'
 */
export function hideServerPaths(message: string): string {
  return message.replace(ABSOLUTE_PATH, (_whole, lead: string, file: string) => lead + (path.posix.basename(file) || file));
}
