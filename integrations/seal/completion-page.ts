import { PageSizes, rgb, StandardFonts, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import type { SealRequest } from '../../domain/signatures/seal-contract';
import { printable, wrapped } from './text';

const MARGIN = 50;
const [WIDTH, HEIGHT] = PageSizes.A4;
const TEXT_WIDTH = WIDTH - 2 * MARGIN;
const GREY = rgb(0.35, 0.35, 0.35);

/** Writes lines top-down, starting a new A4 page whenever the current one is full. */
class Flow {
  private page!: PDFPage;
  private y = 0;

  constructor(private readonly doc: PDFDocument) {
    this.newPage();
  }

  private newPage(): void {
    this.page = this.doc.addPage([WIDTH, HEIGHT]);
    this.y = HEIGHT - MARGIN;
  }

  write(font: PDFFont, size: number, raw: string, options: { indent?: number; grey?: boolean } = {}): void {
    const indent = options.indent ?? 0;
    for (const line of wrapped(font, printable(font, raw), size, TEXT_WIDTH - indent)) {
      if (this.y - size < MARGIN) this.newPage();
      this.y -= size * 1.35;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: options.grey ? GREY : rgb(0, 0, 0) });
    }
  }

  gap(points: number): void {
    this.y -= points;
  }
}

const orDash = (v: string | null) => (v === null || v === '' ? '-' : v);

/**
 * The Certificate of Completion after the last page: what was signed (title, instance, SHA-256 of
 * the source as uploaded), who signed it and when, and every audit event with its network context.
 */
export async function appendCompletionPages(doc: PDFDocument, request: SealRequest, sourceSha256: string): Promise<void> {
  const [regular, bold] = await Promise.all([doc.embedFont(StandardFonts.Helvetica), doc.embedFont(StandardFonts.HelveticaBold)]);
  const flow = new Flow(doc);
  flow.write(bold, 18, 'Certificate of Completion');
  flow.gap(8);
  flow.write(regular, 10, `Document: ${request.title}`);
  flow.write(regular, 10, `Instance: ${request.instanceId}`);
  flow.write(regular, 10, `Source PDF SHA-256: ${sourceSha256}`);
  flow.write(regular, 10, `Pages before this certificate: ${doc.getPageCount() - 1}`);

  flow.gap(12);
  flow.write(bold, 13, 'Signers');
  for (const s of request.signers) {
    flow.gap(4);
    flow.write(bold, 10, `${s.label} (${s.signerId})`);
    flow.write(regular, 10, `${s.name} <${s.email}>`, { indent: 12 });
    flow.write(regular, 10, `Signed at ${s.signedAt}`, { indent: 12 });
  }

  flow.gap(12);
  flow.write(bold, 13, 'Audit trail');
  for (const e of request.events) {
    flow.gap(4);
    flow.write(bold, 9, `${e.at}  ${e.action}${e.signerId ? `  (${e.signerId})` : ''}`);
    flow.write(regular, 9, `IP ${orDash(e.ip)}, IP risk ${orDash(e.ipRisk)}, geo ${orDash(e.geo)}`, { indent: 12 });
    flow.write(regular, 8, `User agent: ${orDash(e.userAgent)}`, { indent: 12, grey: true });
  }
}
