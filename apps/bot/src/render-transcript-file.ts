import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import PDFDocument from 'pdfkit';
import type { Transcript } from '@transcribe/core';
import type { Translate } from './bot-i18n.ts';
import { renderChatTranscript } from './render-chat-transcript.ts';

/** The file formats offered on the buttons under a transcript. */
export const TRANSCRIPT_FILE_FORMATS = ['txt', 'srt', 'docx', 'pdf'] as const;
export type TranscriptFileFormat = (typeof TRANSCRIPT_FILE_FORMATS)[number];

/** A transcript as one file to send: name, bytes and the caption under it. */
export interface TranscriptFile {
  fileName: string;
  content: Buffer;
  caption: string;
}

/**
 * Where DejaVu Sans is: Debian's fonts-dejavu-core first, else the copy shipped with the
 * dejavu-fonts-ttf package. PDF's built-in fonts cover Latin only, so without an embedded font that
 * covers Cyrillic (and Greek, Armenian, Georgian, …) a Russian transcript would print as gaps.
 */
const SYSTEM_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/**
 * The transcript as a file in `format`: `txt` text with time labels (and speakers when there are
 * several), `srt` subtitles (spec 2.3.5), `docx` and `pdf` the text with time labels, one
 * paragraph per line, for people who print, mark up or share it. `baseName` names the file
 * (`voice` → `voice.pdf`); the caption is in the reader's language (`t`).
 */
export async function renderTranscriptFile(
  transcript: Transcript,
  format: TranscriptFileFormat,
  baseName: string,
  t: Translate,
): Promise<TranscriptFile> {
  const timed = renderChatTranscript(transcript, format === 'srt' ? 'srt' : 'txt', baseName, t);
  const text = timed.kind === 'document' ? String(timed.content) : timed.parts.join('\n');
  if (format === 'txt' || format === 'srt') {
    return { fileName: `${baseName}.${format}`, content: Buffer.from(text, 'utf8'), caption: t(`caption-${format}`) };
  }
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const content = format === 'docx' ? await renderDocx(lines, baseName) : await renderPdf(lines, baseName);
  return { fileName: `${baseName}.${format}`, content, caption: t(`caption-${format}`) };
}

async function renderDocx(lines: string[], title: string): Promise<Buffer> {
  const document = new Document({
    title,
    sections: [{ children: lines.map((line) => new Paragraph({ children: [new TextRun(line)], spacing: { after: 120 } })) }],
  });
  return Packer.toBuffer(document);
}

/** A4 PDF with DejaVu Sans embedded (subset), 11 pt. */
async function renderPdf(lines: string[], title: string): Promise<Buffer> {
  const pdf = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont('body', pdfFontPath());
  pdf.font('body').fontSize(11);
  for (const line of lines) pdf.text(line, { paragraphGap: 6 });
  pdf.end();
  return done;
}

/** The font file for PDFs (see SYSTEM_FONT). */
export function pdfFontPath(): string {
  if (existsSync(SYSTEM_FONT)) return SYSTEM_FONT;
  return createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
}
