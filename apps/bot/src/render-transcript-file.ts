import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import PDFDocument from 'pdfkit';
import type { Transcript } from '@transcribe/core';
import type { Translate } from './bot-i18n.ts';
import { renderChatTranscript, timedTextName } from './render-chat-transcript.ts';

/** The file formats offered on the buttons under a transcript. */
export const TRANSCRIPT_FILE_FORMATS = ['txt', 'srt', 'docx', 'pdf'] as const;
export type TranscriptFileFormat = (typeof TRANSCRIPT_FILE_FORMATS)[number];

/** The heading of a .docx or .pdf transcript: the recording's name, and when it was sent and how long it is, in words. */
export interface FileHeading {
  /** `talk.mp3`, `Voice message`. */
  title: string;
  /** `Sent 10 March 2026, 12:04 UTC · 0:11`. */
  details: string;
}

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
 * several), `srt` subtitles (spec 2.3.5), `docx` and `pdf` a heading (the recording, when it was
 * sent, its length) over the text with time labels, one paragraph per line, for people who print,
 * mark up or share it: a printed page must say what it is a transcript of. `baseName` names the
 * file (`voice` → `voice.pdf`, `voice_timed.txt`); the caption is in the reader's language (`t`).
 */
export async function renderTranscriptFile(
  transcript: Transcript,
  format: TranscriptFileFormat,
  baseName: string,
  t: Translate,
  heading: FileHeading = { title: baseName, details: '' },
): Promise<TranscriptFile> {
  const timed = renderChatTranscript(transcript, format === 'srt' ? 'srt' : 'txt', baseName, t);
  const text = timed.kind === 'document' ? String(timed.content) : timed.parts.join('\n');
  if (format === 'txt' || format === 'srt') {
    const fileName = format === 'txt' ? timedTextName(baseName) : `${baseName}.srt`;
    return { fileName, content: Buffer.from(text, 'utf8'), caption: t(`caption-${format}`) };
  }
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const content = format === 'docx' ? await renderDocx(lines, heading) : await renderPdf(lines, heading);
  return { fileName: `${baseName}.${format}`, content, caption: t(`caption-${format}`) };
}

async function renderDocx(lines: string[], heading: FileHeading): Promise<Buffer> {
  const head = [
    new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(heading.title)] }),
    ...(heading.details
      ? [new Paragraph({ children: [new TextRun({ text: heading.details, italics: true })], spacing: { after: 240 } })]
      : []),
  ];
  const document = new Document({
    title: heading.title,
    subject: heading.details,
    sections: [{ children: [...head, ...lines.map((line) => new Paragraph({ children: [new TextRun(line)], spacing: { after: 120 } }))] }],
  });
  return Packer.toBuffer(document);
}

/** A4 PDF with DejaVu Sans embedded (subset): the heading at 16 pt and its details at 9 pt, then the text at 11 pt. */
async function renderPdf(lines: string[], heading: FileHeading): Promise<Buffer> {
  const pdf = new PDFDocument({ size: 'A4', margin: 56, info: { Title: heading.title, Subject: heading.details } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont('body', pdfFontPath());
  pdf.font('body').fontSize(16).text(heading.title, { paragraphGap: 4 });
  if (heading.details) pdf.fontSize(9).fillColor('#555555').text(heading.details, { paragraphGap: 14 }).fillColor('black');
  pdf.fontSize(11);
  for (const line of lines) pdf.text(line, { paragraphGap: 6 });
  pdf.end();
  return done;
}

/** The font file for PDFs (see SYSTEM_FONT). */
export function pdfFontPath(): string {
  if (existsSync(SYSTEM_FONT)) return SYSTEM_FONT;
  return createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
}
