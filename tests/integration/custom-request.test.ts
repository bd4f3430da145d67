// POST /api/custom-request against the real database and a real SMTP server on loopback.
import { crc32 } from "node:zlib";
import ExcelJS from "exceljs";
import { NextRequest } from "next/server";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpCatcher } from "../support/smtp";
import { call, callJson } from "../support/routes";

const smtp = await startSmtpCatcher();
process.env.SMTP_URL = smtp.url;
process.env.CUSTOM_REQUEST_LIMIT = "20";

const { POST } = await import("@/app/api/custom-request/route");
const { db, pool } = await import("@/lib/db");
const { getNotificationRecipient, getSettings } = await import("@/lib/settings");
const { sanitizeFileName } = await import("@/lib/custom-requests/files");

const MB = 1024 * 1024;
let ipCounter = 0;
/** Each test speaks from its own address so the per-address limit never interferes. */
const freshIp = () => `198.51.100.${++ipCounter}`;
const unique = (label: string) =>
  `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

// --- sample files whose first bytes are what their extension claims --------------------------

/** A real (stored, uncompressed) zip archive. */
function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(content);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const ole2 = (marker: string) =>
  Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504, marker)]);

const samples = {
  pdf: Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"),
  docx: zip({
    "[Content_Types].xml": '<?xml version="1.0"?><Types/>',
    "word/document.xml": '<?xml version="1.0"?><w:document/>',
  }),
  xlsx: Buffer.alloc(0),
  csv: Buffer.from("first_name,last_name,email\nAda,Lovelace,ada@example.com\n"),
  doc: ole2("d"),
  xls: ole2("x"),
};

beforeAll(async () => {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet("Leads").addRow(["name", "email"]);
  samples.xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
  // The notification goes to Settings' address; make sure there is one in this fresh database.
  const settings = await getSettings();
  if (!settings.notificationEmail) {
    await db().settings.update({ where: { id: 1 }, data: { notificationEmail: "notify@leadmarket.test" } });
  }
});

afterAll(async () => {
  await smtp.close();
  await db().$disconnect();
  await pool().end();
});

// --- helpers ------------------------------------------------------------------------------------

type Answer = { success: boolean; _id?: string; message?: string; errors?: Record<string, string> };

function validFields(overrides: Record<string, unknown> = {}) {
  return {
    name: "Grace Hopper",
    email: `${unique("grace")}@example.com`,
    industry: "finance",
    role: "cto",
    message: "We need 500 fintech CTOs in the UK.",
    platforms: ["linkedin", "slack"],
    ...overrides,
  };
}

function postJson(json: unknown, ip = freshIp()) {
  return callJson<Answer>(POST, "/api/custom-request", { json, headers: { "x-forwarded-for": ip } });
}

type Upload = { name: string; data: Buffer; type?: string };

function form(fields: Record<string, unknown>, files: Upload[] = []): FormData {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(key, String(item));
  }
  for (const file of files) {
    body.append("files", new Blob([new Uint8Array(file.data)], { type: file.type ?? "" }), file.name);
  }
  return body;
}

function postForm(body: FormData, ip = freshIp()) {
  return callJson<Answer>(POST, "/api/custom-request", { body, headers: { "x-forwarded-for": ip } });
}

/** A request whose body is a stream, read by the handler as it arrives. */
function streamingRequest(headers: Record<string, string>, body: ReadableStream<Uint8Array>): NextRequest {
  // Node's fetch needs duplex "half" for a streamed body; the DOM typings do not know the option.
  const init: RequestInit & { duplex: "half" } = { method: "POST", headers, body, duplex: "half" };
  return new NextRequest(new Request("http://localhost:3999/api/custom-request", init));
}

async function storedRequest(id: string) {
  return db().customRequest.findUniqueOrThrow({ where: { id }, include: { attachments: true } });
}

async function countByEmail(email: string) {
  return db().customRequest.count({ where: { email } });
}

const mailTo = (address: string) => (mail: ParsedMail) =>
  [mail.to]
    .flat()
    .some((entry) => entry?.value.some((item) => item.address?.toLowerCase() === address.toLowerCase()));

// --- tests ----------------------------------------------------------------------------------------

describe("POST /api/custom-request: JSON", () => {
  it("stores the request as pending with platforms joined by ', ' and answers 201 with its id", async () => {
    const fields = validFields();
    const { status, body } = await postJson(fields);
    expect(status).toBe(201);
    expect(body).toEqual({ success: true, _id: expect.any(String) });

    const stored = await storedRequest(body._id!);
    expect(stored).toMatchObject({
      name: "Grace Hopper",
      email: fields.email,
      industry: "finance",
      role: "cto",
      platform: "linkedin, slack",
      message: "We need 500 fintech CTOs in the UK.",
      status: "pending",
    });
    expect(stored.attachments).toEqual([]);
  });

  it("mails the admin the whole request and promises the requester a reply within 24 hours", async () => {
    const fields = validFields({ name: unique("Mail Tester") });
    const { status, body } = await postJson(fields);
    expect(status).toBe(201);

    const confirmation = await smtp.waitFor(mailTo(fields.email));
    expect(confirmation.subject).toBe("We've received your custom lead request");
    // Nothing the requester typed reaches the address they typed: not even their name.
    expect(confirmation.text).toContain("Hello,");
    expect(confirmation.text).not.toContain(fields.name);
    expect(confirmation.text).toContain("within 24 hours");
    expect(confirmation.text).toContain("Platforms: LinkedIn, Slack");
    // The free-text message is never relayed to the address typed into the form.
    expect(confirmation.text).not.toContain(fields.message);

    const notification = await smtp.waitFor(
      (mail) => mail.subject === `New custom lead request from ${fields.name}`,
    );
    const recipient = await getNotificationRecipient();
    expect(mailTo(recipient!)(notification)).toBe(true);
    for (const line of [
      `Email: ${fields.email}`,
      "Platforms: LinkedIn, Slack",
      "Industry: Finance",
      "Role: CTO",
      `Message: ${fields.message}`,
      "Attachments (0):",
      `Request id: ${body._id}`,
    ]) {
      expect(notification.text).toContain(line);
    }
  });

  it("accepts the form's platform toggles as an object and applies the defaults", async () => {
    const { status, body } = await postJson({
      name: "Toggle User",
      email: `${unique("toggle")}@example.com`,
      platforms: { linkedin: false, facebook: true, instagram: true, slack: false },
    });
    expect(status).toBe(201);
    expect(await storedRequest(body._id!)).toMatchObject({
      platform: "facebook, instagram",
      industry: "saas",
      role: "ceo",
      message: "",
    });
  });

  it.each([
    ["a missing name", { name: undefined }, "name"],
    ["a blank name", { name: "   " }, "name"],
    ["a name with a line break", { name: "Eve\r\nBcc: victim@example.com" }, "name"],
    ["a missing email", { email: undefined }, "email"],
    ["an invalid email", { email: "not-an-email" }, "email"],
    ["an unknown industry", { industry: "mining" }, "industry"],
    ["an unknown role", { role: "intern" }, "role"],
    ["an unknown platform", { platforms: ["linkedin", "myspace"] }, "platforms"],
    ["a message over 5000 characters", { message: "x".repeat(5001) }, "message"],
    ["a name over 200 characters", { name: "n".repeat(201) }, "name"],
  ])("refuses %s with 400 and a field error, storing nothing", async (_label, override, field) => {
    const fields = validFields(override);
    const { status, body } = await postJson(fields);
    expect(status).toBe(400);
    expect(body.success).toBe(false);
    expect(Object.keys(body.errors ?? {}).some((key) => key.startsWith(field))).toBe(true);
    if (typeof fields.email === "string") expect(await countByEmail(fields.email)).toBe(0);
  });

  it("refuses malformed JSON, other content types and oversized JSON bodies", async () => {
    const malformed = await callJson<Answer>(POST, "/api/custom-request", {
      body: "{not json",
      headers: { "content-type": "application/json", "x-forwarded-for": freshIp() },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe("Request body must be valid JSON");

    const text = await callJson<Answer>(POST, "/api/custom-request", {
      body: "name=x",
      headers: { "content-type": "text/plain", "x-forwarded-for": freshIp() },
    });
    expect(text.status).toBe(415);

    const huge = await postJson(validFields({ message: "x".repeat(70 * 1024) }));
    expect(huge.status).toBe(413);
  });

  it("answers a filled honeypot like a success but stores and mails nothing", async () => {
    const fields = validFields({ website: "http://spam.example" });
    const { status, body } = await postJson(fields);
    expect(status).toBe(201);
    expect(body.success).toBe(true);
    expect(await countByEmail(fields.email)).toBe(0);
    expect(await db().customRequest.findUnique({ where: { id: body._id! } })).toBeNull();
  });
});

describe("POST /api/custom-request: multipart", () => {
  it("stores every accepted type byte for byte with its canonical content type, in one request", async () => {
    const uploads: Upload[] = [
      { name: "brief.pdf", data: samples.pdf, type: "application/pdf" },
      { name: "targets.docx", data: samples.docx },
      { name: "accounts.xlsx", data: samples.xlsx },
      { name: "contacts.CSV", data: samples.csv, type: "text/csv" },
      { name: "legacy.doc", data: samples.doc, type: "application/octet-stream" },
    ];
    const fields = validFields({ name: unique("Uploader") });
    const { status, body } = await postForm(form(fields, uploads));
    expect(status).toBe(201);

    const stored = await storedRequest(body._id!);
    expect(stored.platform).toBe("linkedin, slack");
    const byName = new Map(stored.attachments.map((attachment) => [attachment.fileName, attachment]));
    expect([...byName.keys()].sort()).toEqual(
      ["accounts.xlsx", "brief.pdf", "contacts.csv", "legacy.doc", "targets.docx"].sort(),
    );
    const expectations: [string, Buffer, string][] = [
      ["brief.pdf", samples.pdf, "application/pdf"],
      [
        "targets.docx",
        samples.docx,
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      ],
      ["accounts.xlsx", samples.xlsx, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
      ["contacts.csv", samples.csv, "text/csv"],
      ["legacy.doc", samples.doc, "application/msword"],
    ];
    for (const [name, data, contentType] of expectations) {
      const attachment = byName.get(name)!;
      expect(attachment.contentType).toBe(contentType);
      expect(attachment.size).toBe(data.length);
      expect(Buffer.from(attachment.data).equals(data)).toBe(true);
    }

    const notification = await smtp.waitFor(
      (mail) => mail.subject === `New custom lead request from ${fields.name}`,
    );
    expect(notification.text).toContain("Attachments (5):");
    expect(notification.text).toContain(`brief.pdf (${(samples.pdf.length / 1024).toFixed(1)} KB)`);
    expect(notification.text).toContain("accounts.xlsx");
    const confirmation = await smtp.waitFor(mailTo(fields.email));
    expect(confirmation.text).toContain("Attachments: 5 file(s)");
  });

  it("takes platforms as repeated values or as one JSON array, and an .xls file", async () => {
    const repeated = await postForm(form(validFields({ platforms: ["slack", "facebook"] })));
    expect(repeated.status).toBe(201);
    expect((await storedRequest(repeated.body._id!)).platform).toBe("facebook, slack");

    const asJson = await postForm(
      form(validFields({ platforms: JSON.stringify(["instagram"]) }), [
        { name: "book.xls", data: samples.xls },
      ]),
    );
    expect(asJson.status).toBe(201);
    const stored = await storedRequest(asJson.body._id!);
    expect(stored.platform).toBe("instagram");
    expect(stored.attachments[0]).toMatchObject({
      fileName: "book.xls",
      contentType: "application/vnd.ms-excel",
    });
  });

  it("sanitises file names", async () => {
    const { status, body } = await postForm(
      form(validFields(), [{ name: "..\\..\\etc/pass<wd>:x|y?.pdf", data: samples.pdf }]),
    );
    expect(status).toBe(201);
    expect((await storedRequest(body._id!)).attachments[0].fileName).toBe("pass_wd__x_y_.pdf");
    expect(sanitizeFileName("...hidden.csv", "csv")).toBe("hidden.csv");
    expect(sanitizeFileName(".pdf", "pdf")).toBe("attachment.pdf");
    expect(sanitizeFileName(`${"a".repeat(300)}.xlsx`, "xlsx")).toHaveLength(200);
    expect(sanitizeFileName("line\nbreak\u0000.doc", "doc")).toBe("line_break_.doc");
  });

  it.each([
    ["a disallowed extension", { name: "run.exe", data: Buffer.from("MZ\x90\x00") }],
    ["no extension", { name: "README", data: samples.csv }],
    ["a PDF that is text", { name: "fake.pdf", data: Buffer.from("hello, not a pdf") }],
    ["a DOCX that is a workbook", { name: "sheet.docx", data: samples.xlsx }],
    ["an XLSX that is a PDF", { name: "report.xlsx", data: samples.pdf }],
    ["a DOC that is a zip", { name: "old.doc", data: samples.docx }],
    ["a CSV with binary content", { name: "data.csv", data: Buffer.from([0x41, 0x00, 0x42, 0x01]) }],
    ["an empty file", { name: "empty.pdf", data: Buffer.alloc(0) }],
  ])("refuses %s with 400 and stores nothing, not even the valid files", async (_label, bad) => {
    const fields = validFields();
    const { status, body } = await postForm(form(fields, [{ name: "ok.pdf", data: samples.pdf }, bad]));
    expect(status).toBe(400);
    expect(body.errors?.files).toContain(bad.name);
    expect(await countByEmail(fields.email)).toBe(0);
  });

  it("reports field and file errors together", async () => {
    const { status, body } = await postForm(
      form(validFields({ email: "nope" }), [{ name: "x.pdf", data: Buffer.from("nope") }]),
    );
    expect(status).toBe(400);
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(["email", "files"]);
  });

  it("refuses a sixth file with 400", async () => {
    const fields = validFields();
    const six = Array.from({ length: 6 }, (_, index) => ({ name: `f${index}.pdf`, data: samples.pdf }));
    const { status, body } = await postForm(form(fields, six));
    expect(status).toBe(400);
    expect(body.errors?.files).toBe("At most 5 files can be attached");
    expect(await countByEmail(fields.email)).toBe(0);
  });

  it("accepts a file of exactly 10 MB and refuses one byte more with 413", async () => {
    const exact = Buffer.concat([samples.pdf, Buffer.alloc(10 * MB - samples.pdf.length, 0x20)]);
    const ok = await postForm(form(validFields(), [{ name: "big.pdf", data: exact }]));
    expect(ok.status).toBe(201);
    const stored = await storedRequest(ok.body._id!);
    expect(stored.attachments[0].size).toBe(10 * MB);
    expect(Buffer.from(stored.attachments[0].data).equals(exact)).toBe(true);

    const fields = validFields();
    const over = await postForm(
      form(fields, [{ name: "bigger.pdf", data: Buffer.concat([exact, Buffer.from(" ")]) }]),
    );
    expect(over.status).toBe(413);
    expect(over.body.message).toBe("Each file must be 10 MB or smaller");
    expect(await countByEmail(fields.email)).toBe(0);
  });

  it("refuses a declared oversized body with 413 before reading any of it", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const request = streamingRequest(
      {
        "content-type": "multipart/form-data; boundary=----x",
        "content-length": String(60 * MB),
        "x-forwarded-for": freshIp(),
      },
      body,
    );
    const response = await POST(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(413);
    // At most what the stream machinery prefetches (64 KB chunks), nowhere near the declared 60 MB.
    expect(pulled).toBeLessThan(16);
  });

  it("stops reading an endless upload without a length as soon as the file passes 10 MB", async () => {
    const boundary = "----endless";
    let sent = 0;
    let opened = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!opened) {
          opened = true;
          const head =
            `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nEndless\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\nendless@example.com\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="endless.pdf"\r\n` +
            `Content-Type: application/pdf\r\n\r\n%PDF-1.4\n`;
          controller.enqueue(new TextEncoder().encode(head));
          return;
        }
        sent += 256 * 1024;
        controller.enqueue(new Uint8Array(256 * 1024).fill(0x20));
      },
    });
    const request = streamingRequest(
      {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "x-forwarded-for": freshIp(),
      },
      body,
    );
    const response = await POST(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(413);
    // Refused a little past the 10 MB mark, not after swallowing the stream.
    expect(sent).toBeLessThan(12 * MB);
  });

  it("refuses a malformed multipart body with 400", async () => {
    const response = await call(POST, "/api/custom-request", {
      body: "garbage",
      headers: { "content-type": "multipart/form-data", "x-forwarded-for": freshIp() },
    });
    expect(response.status).toBe(400);
  });

  it("refuses files sent under another field name", async () => {
    const body = form(validFields());
    body.append("attachment", new Blob([new Uint8Array(samples.pdf)]), "a.pdf");
    const { status, body: answer } = await postForm(body);
    expect(status).toBe(400);
    expect(answer.errors?.attachment).toBeDefined();
  });
});

describe("concurrency and mail", () => {
  it("stores all of 50 concurrent submissions; uploads beyond the concurrent cap get 503 with Retry-After", async () => {
    const batch = unique("batch");
    const isUpload = (index: number) => index % 5 === 0;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => {
        const fields = validFields({ name: `Concurrent ${index}`, email: `${batch}-${index}@example.com` });
        return isUpload(index)
          ? postForm(form(fields, [{ name: `c${index}.csv`, data: samples.csv }]))
          : postJson(fields);
      }),
    );
    answers.forEach((answer, index) => {
      if (isUpload(index) && answer.status === 503) {
        expect(answer.headers.get("retry-after")).toBe("10");
      } else {
        expect(answer.status, `submission ${index}`).toBe(201);
      }
    });
    const accepted = answers.filter((answer) => answer.status === 201);
    const acceptedUploads = answers.filter((answer, index) => isUpload(index) && answer.status === 201);
    expect(acceptedUploads.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((answer) => answer.body._id)).size).toBe(accepted.length);
    const stored = await db().customRequest.count({ where: { email: { startsWith: `${batch}-` } } });
    expect(stored).toBe(accepted.length);
    const attachments = await db().attachment.count({
      where: { request: { email: { startsWith: `${batch}-` } } },
    });
    expect(attachments).toBe(acceptedUploads.length);
  });

  it("sends only the confirmation when notifications are off (no recipient)", async () => {
    const fields = validFields({ name: unique("Quiet") });
    await db().settings.update({ where: { id: 1 }, data: { enableNotifications: false } });
    try {
      expect((await postJson(fields)).status).toBe(201);
      await smtp.waitFor(mailTo(fields.email));
    } finally {
      await db().settings.update({ where: { id: 1 }, data: { enableNotifications: true } });
    }
    const subject = `New custom lead request from ${fields.name}`;
    expect(smtp.messages.some((mail) => mail.subject === subject)).toBe(false);
    expect(await db().mailOutbox.count({ where: { mail: { path: ["subject"], equals: subject } } })).toBe(0);
  });
});
