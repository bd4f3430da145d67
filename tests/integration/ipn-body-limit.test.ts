// The provider callback is public: its body is read with a 16 KB bound before any signature check.
import { createHmac } from "node:crypto";
import { NextRequest } from "next/server";

type StreamInit = ConstructorParameters<typeof NextRequest>[1] & { duplex: "half" };
import { describe, expect, it } from "vitest";

process.env.NOWPAYMENTS_IPN_SECRET = "ipn-secret-limit";
const { POST: ipn } = await import("@/app/api/payment/ipn/route");

/** A body of `total` bytes produced on demand, counting how much of it the server pulled. */
function countingBody(total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => sent };
}

describe("POST /api/payment/ipn body bound", () => {
  it("refuses a streamed body past 16 KB with 413 after reading little more than the bound", async () => {
    const body = countingBody(50 * 1024 * 1024);
    const request = new NextRequest("http://localhost:3999/api/payment/ipn", {
      method: "POST",
      headers: { "content-type": "application/json", "x-nowpayments-sig": "00" },
      body: body.stream,
      duplex: "half",
    } as StreamInit);
    const response = await ipn(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThan(1024 * 1024);
  });

  it("refuses a declared length past 16 KB without reading the body", async () => {
    const body = countingBody(10 * 1024 * 1024);
    const request = new NextRequest("http://localhost:3999/api/payment/ipn", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(10 * 1024 * 1024) },
      body: body.stream,
      duplex: "half",
    } as StreamInit);
    const response = await ipn(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ success: false });
    expect(body.pulled()).toBeLessThanOrEqual(2 * 64 * 1024);
  });

  it("answers a body nested deeper than any payment 401, never a 500 from an exhausted stack", async () => {
    const depth = 8000; // as deep as 16 KB allows
    const request = new NextRequest("http://localhost:3999/api/payment/ipn", {
      method: "POST",
      headers: { "content-type": "application/json", "x-nowpayments-sig": "ab".repeat(64) },
      body: `${"[".repeat(depth)}${"]".repeat(depth)}`,
    });
    const response = await ipn(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(401);
  });

  it("refuses a 20 KB body with 413: a payment record is about 1 KB", async () => {
    const request = new NextRequest("http://localhost:3999/api/payment/ipn", {
      method: "POST",
      headers: { "content-type": "application/json", "x-nowpayments-sig": "ab".repeat(64) },
      body: JSON.stringify({ payment_id: 1, note: "x".repeat(20 * 1024) }),
    });
    const response = await ipn(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(413);
  });

  it("answers a correctly signed body of 5,000 values 401: no payment holds that many", async () => {
    // Keys in order, so the text is what the provider would sign: only the shape refuses it.
    const text = JSON.stringify({ payment_id: 1, x: new Array<number>(5000).fill(0) });
    expect(text.length).toBeLessThan(16 * 1024);
    const signature = createHmac("sha512", "ipn-secret-limit").update(text).digest("hex");
    const request = new NextRequest("http://localhost:3999/api/payment/ipn", {
      method: "POST",
      headers: { "content-type": "application/json", "x-nowpayments-sig": signature },
      body: text,
    });
    const response = await ipn(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(401);
  });
});
