import "server-only";
import path from "node:path";
import PDFDocument from "pdfkit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { OutgoingFile } from "@/lib/content-types";
import { invoiceDocument, type InvoiceDocument, type InvoiceRecord } from "@/lib/orders/invoice-document";
import type { PaidOrder } from "@/lib/orders/invoice";
import { invoiceFileName } from "@/lib/schemas/invoice";

// The invoice as a PDF (A4), drawn afresh from the stored invoice each time it is asked for. The
// text is set in DejaVu Sans, embedded: the standard PDF fonts have Western European letters only
// and would garble "Łódź" or "Ελλάς"; DejaVu covers Latin, Greek and Cyrillic.

const FONT_DIR = path.join(
  /* turbopackIgnore: true */ process.cwd(),
  "node_modules",
  "dejavu-fonts-ttf",
  "ttf",
);
const REGULAR = path.join(FONT_DIR, "DejaVuSans.ttf");
const BOLD = path.join(FONT_DIR, "DejaVuSans-Bold.ttf");
const MARGIN = 50;
const WIDTH = 595.28 - 2 * MARGIN;

async function invoiceRecord(order: PaidOrder): Promise<InvoiceRecord> {
  const row = await db().invoice.findUnique({
    where: { orderId: order.id },
    omit: { orderId: true, sellerId: true },
    include: { order: { select: { payCurrency: true, actuallyPaid: true } } },
  });
  if (!row) throw notFound("This order has no invoice yet: enter your company's details first");
  return {
    ...row,
    vatRatePercent: row.vatRatePercent.toNumber(),
    order: {
      ...order,
      payCurrency: row.order.payCurrency,
      actuallyPaid: row.order.actuallyPaid?.toFixed() ?? null,
    },
  };
}

function draw(pdf: PDFKit.PDFDocument, doc: InvoiceDocument): void {
  pdf.font(BOLD).fontSize(22).text(doc.title);
  pdf.moveDown(0.5).fontSize(10);
  for (const [label, value] of doc.facts) {
    pdf.font(BOLD).text(`${label}: `, { continued: true }).font(REGULAR).text(value);
  }
  pdf.moveDown();
  const top = pdf.y;
  const half = WIDTH / 2 - 10;
  pdf.font(BOLD).text("From", MARGIN, top, { width: half });
  pdf.font(REGULAR).text(doc.seller.join("\n"), { width: half });
  const sellerBottom = pdf.y;
  pdf.font(BOLD).text("Bill to", MARGIN + WIDTH / 2, top, { width: half });
  pdf.font(REGULAR).text(doc.buyer.join("\n"), { width: half });
  pdf.x = MARGIN;
  pdf.y = Math.max(sellerBottom, pdf.y) + 20;

  const columns = { description: WIDTH - 180, leads: 80, price: 100 };
  const row = (cells: [string, string, string], font: string) => {
    const y = pdf.y;
    pdf.font(font).text(cells[0], MARGIN, y, { width: columns.description });
    const bottom = pdf.y;
    pdf.text(cells[1], MARGIN + columns.description, y, { width: columns.leads, align: "right" });
    pdf.text(cells[2], MARGIN + columns.description + columns.leads, y, {
      width: columns.price,
      align: "right",
    });
    pdf.x = MARGIN;
    pdf.y = Math.max(bottom, pdf.y) + 6;
  };
  row(["Description", "Leads", "Price (USD)"], BOLD);
  pdf
    .moveTo(MARGIN, pdf.y - 3)
    .lineTo(MARGIN + WIDTH, pdf.y - 3)
    .stroke();
  row([doc.line.description.join("\n"), doc.line.leads, doc.line.price], REGULAR);
  pdf.moveDown();
  for (const [label, value] of doc.totals) row([label, "", value], REGULAR);
  pdf.moveDown();
  for (const note of doc.notes) pdf.font(REGULAR).text(note, MARGIN, pdf.y, { width: WIDTH }).moveDown(0.5);
}

/** The order's invoice PDF; 404 before the buyer entered their details. */
export async function invoicePdf(order: PaidOrder): Promise<OutgoingFile> {
  const record = await invoiceRecord(order);
  const pdf = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    font: REGULAR,
    info: { Title: `Invoice ${record.number}`, Author: record.sellerLegalName },
  });
  const chunks: Buffer[] = [];
  pdf.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    pdf.on("end", resolve);
    pdf.on("error", reject);
  });
  draw(pdf, invoiceDocument(record));
  pdf.end();
  await ended;
  const body = new Uint8Array(Buffer.concat(chunks));
  return { fileName: invoiceFileName(record.number), contentType: "application/pdf", body };
}
