import "server-only";
import PDFDocument from "pdfkit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { OutgoingFile } from "@/lib/content-types";
import { invoiceDocument, type InvoiceDocument, type InvoiceRecord } from "@/lib/orders/invoice-document";
import type { PaidOrder } from "@/lib/orders/invoice";
import { invoiceFileName } from "@/lib/schemas/invoice";

// The invoice as a PDF (A4, the standard Helvetica fonts), drawn afresh from the stored invoice
// each time it is asked for.

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
  pdf.font("Helvetica-Bold").fontSize(22).text(doc.title);
  pdf.moveDown(0.5).fontSize(10);
  for (const [label, value] of doc.facts) {
    pdf.font("Helvetica-Bold").text(`${label}: `, { continued: true }).font("Helvetica").text(value);
  }
  pdf.moveDown();
  const top = pdf.y;
  const half = WIDTH / 2 - 10;
  pdf.font("Helvetica-Bold").text("From", MARGIN, top, { width: half });
  pdf.font("Helvetica").text(doc.seller.join("\n"), { width: half });
  const sellerBottom = pdf.y;
  pdf.font("Helvetica-Bold").text("Bill to", MARGIN + WIDTH / 2, top, { width: half });
  pdf.font("Helvetica").text(doc.buyer.join("\n"), { width: half });
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
  row(["Description", "Leads", "Price (USD)"], "Helvetica-Bold");
  pdf
    .moveTo(MARGIN, pdf.y - 3)
    .lineTo(MARGIN + WIDTH, pdf.y - 3)
    .stroke();
  row([doc.line.description.join("\n"), doc.line.leads, doc.line.price], "Helvetica");
  pdf.moveDown();
  for (const [label, value] of doc.totals) row([label, "", value], "Helvetica");
  pdf.moveDown();
  for (const note of doc.notes)
    pdf.font("Helvetica").text(note, MARGIN, pdf.y, { width: WIDTH }).moveDown(0.5);
}

/** The order's invoice PDF; 404 before the buyer entered their details. */
export async function invoicePdf(order: PaidOrder): Promise<OutgoingFile> {
  const record = await invoiceRecord(order);
  const pdf = new PDFDocument({
    size: "A4",
    margin: MARGIN,
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
