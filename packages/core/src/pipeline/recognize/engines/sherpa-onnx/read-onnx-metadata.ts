import { open, type FileHandle } from 'node:fs/promises';

/**
 * Protobuf field numbers of onnx.proto's ModelProto that matter here: `graph` (7, the weights,
 * skipped without reading) and `metadata_props` (14, StringStringEntryProto: key 1, value 2).
 */
const GRAPH_FIELD = 7;
const METADATA_FIELD = 14;
/** Bytes read per field header: a tag and a length are at most 10 bytes each. */
const HEADER_BYTES = 20;
/** One metadata entry larger than this is not metadata a sherpa-onnx model carries. */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;

/** A protobuf varint at `offset` of `bytes`: [value, bytes used], or null when cut off or too long. */
function readVarint(bytes: Uint8Array, offset: number): [number, number] | null {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10 && offset + i < bytes.length; i++) {
    const byte = bytes[offset + i]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return [value, i + 1];
    scale *= 128;
  }
  return null;
}

/** The string fields `key` (1) and `value` (2) of one StringStringEntryProto, or null when malformed. */
function parseEntry(bytes: Uint8Array): [string, string] | null {
  const fields = new Map<number, string>();
  let offset = 0;
  while (offset < bytes.length) {
    const tag = readVarint(bytes, offset);
    if (!tag || (tag[0] & 7) !== 2) return null;
    const length = readVarint(bytes, offset + tag[1]);
    if (!length) return null;
    const start = offset + tag[1] + length[1];
    if (start + length[0] > bytes.length) return null;
    fields.set(Math.floor(tag[0] / 8), Buffer.from(bytes.subarray(start, start + length[0])).toString('utf8'));
    offset = start + length[0];
  }
  return [fields.get(1) ?? '', fields.get(2) ?? ''];
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/**
 * The `metadata_props` of an ONNX model file (what ONNX Runtime's GetModelMetadata() returns as
 * custom metadata, and what sherpa-onnx reads its model constants from), without loading the model:
 * it walks the top-level fields of the ModelProto and skips the graph, so a 300 MB model costs a few
 * small reads. Field layout: onnx/onnx.proto (ModelProto, StringStringEntryProto).
 * @returns key → value (a later duplicate key wins, as in ONNX Runtime), or null when the file does
 *   not parse as a ModelProto with a graph (not an ONNX model, or damaged: a loader would fail on it
 *   with its own reason).
 * @throws the file system error when the file cannot be opened or read.
 */
export async function readOnnxMetadata(file: string): Promise<Map<string, string> | null> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const metadata = new Map<string, string>();
    let offset = 0;
    let hasGraph = false;
    while (offset < size) {
      const header = await readAt(handle, offset, HEADER_BYTES);
      const tag = readVarint(header, 0);
      if (!tag) return null;
      const field = Math.floor(tag[0] / 8);
      const wireType = tag[0] & 7;
      if (field === 0) return null;
      if (wireType === 0) {
        const value = readVarint(header, tag[1]);
        if (!value) return null;
        offset += tag[1] + value[1];
      } else if (wireType === 1 || wireType === 5) {
        offset += tag[1] + (wireType === 1 ? 8 : 4);
      } else if (wireType === 2) {
        const length = readVarint(header, tag[1]);
        if (!length) return null;
        const start = offset + tag[1] + length[1];
        if (start + length[0] > size) return null;
        if (field === GRAPH_FIELD) hasGraph = true;
        if (field === METADATA_FIELD) {
          if (length[0] > MAX_ENTRY_BYTES) return null;
          const entry = parseEntry(await readAt(handle, start, length[0]));
          if (!entry) return null;
          metadata.set(entry[0], entry[1]);
        }
        offset = start + length[0];
      } else {
        return null; // groups (3, 4) and unknown wire types do not occur in ModelProto
      }
    }
    return offset === size && hasGraph ? metadata : null;
  } finally {
    await handle.close();
  }
}
