import { and, eq, sql } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/open-database.ts';
import { transcriptCache } from '../../platform/db/schema.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import type { RecognitionParams } from './recognition-params.ts';

/** What is stored for a file before its (possibly large) transcript is read. */
export interface TranscriptVariantHeader {
  params: unknown;
  version: number;
}

/** Reads the parameters and version of the stored transcript of a file, or null when none is stored. */
export async function readVariantHeader(db: Db, mediaId: string): Promise<TranscriptVariantHeader | null> {
  const [row] = await db
    .select({ params: transcriptCache.params, version: transcriptCache.version })
    .from(transcriptCache)
    .where(eq(transcriptCache.mediaId, mediaId));
  return row ?? null;
}

/**
 * Reads the transcript of exactly the version whose parameters were matched. When a concurrent
 * request replaced the variant in between, the version is gone and the request must be repeated.
 * @throws AppError `cache_changed` (spec 7) with the instruction to repeat the request.
 */
export async function readVariantTranscript(db: Db, mediaId: string, version: number): Promise<Transcript> {
  const [row] = await db
    .select({ transcript: transcriptCache.transcript })
    .from(transcriptCache)
    .where(and(eq(transcriptCache.mediaId, mediaId), eq(transcriptCache.version, version)));
  if (!row) {
    throw new AppError(
      'cache_changed',
      'cache_changed: a concurrent request changed the stored transcript parameters for this recording while it was being read. Repeat the request.',
    );
  }
  return row.transcript;
}

/**
 * Stores a new transcript variant for a file, replacing the previous one (spec 2.6.4: only the latest
 * variant is kept) and raising its version.
 */
export async function storeVariant(db: Db, mediaId: string, params: RecognitionParams, transcript: Transcript): Promise<void> {
  await db
    .insert(transcriptCache)
    .values({ mediaId, params, transcript, version: 1, audioSeconds: transcript.source.length })
    .onConflictDoUpdate({
      target: transcriptCache.mediaId,
      set: {
        params,
        transcript,
        audioSeconds: transcript.source.length,
        version: sql`${transcriptCache.version} + 1`,
        updatedAt: new Date(),
      },
    });
}
