// Hardening checks that need the real HTTP server: malformed URLs answer 400 before Next.js's own
// decoding fails, the attachment route's sandbox policy reaches the browser unchanged, and a
// standing refusal is given again by the server itself (lib/http/standing-refusals.mjs).
import { expect, test } from "@playwright/test";
import { E2E_ADMIN_EMAIL, findAdmin, signToken } from "./admin-fixtures";

test.describe("malformed URLs", () => {
  for (const path of [
    "/api/categories/%E0%A4%A",
    "/api/leads/%E0%A4%A",
    "/api/payment/status/%E0%A4%A",
    "/api/leads/download/%E0%A4%A",
    "/api/admin/requests/%E0%A4%A/attachments/%ZZ",
    "/category/%E0%A4%A",
  ]) {
    test(`${path} answers 400 with the JSON error`, async ({ request }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(400);
      expect(await response.json()).toEqual({ success: false, message: "Malformed URL" });
    });
  }
});

test("the attachment route's sandbox CSP reaches the browser, not the site's policy", async ({ request }) => {
  const email = `csp-${Date.now()}@example.com`;
  const created = await request.post("/api/custom-request", {
    headers: { "x-forwarded-for": "192.0.2.240" },
    multipart: {
      name: "CSP Check",
      email,
      platforms: "linkedin",
      files: { name: "brief.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") },
    },
  });
  expect(created.status()).toBe(201);
  const { _id: requestId } = (await created.json()) as { _id: string };
  const token = await signToken(await findAdmin(E2E_ADMIN_EMAIL));
  const headers = { authorization: `Bearer ${token}` };
  const list = await request.get("/api/admin/requests?pageSize=100", { headers });
  const requests = (await list.json()) as { _id: string; attachments: { _id: string }[] }[];
  const attachmentId = requests.find((row) => row._id === requestId)!.attachments[0]._id;

  const file = await request.get(`/api/admin/requests/${requestId}/attachments/${attachmentId}`, { headers });
  expect(file.status()).toBe(200);
  expect(file.headers()["content-security-policy"]).toBe("sandbox; default-src 'none'");
  // Pages keep the site-wide policy.
  const home = await request.get("/");
  expect(home.headers()["content-security-policy"]).toContain("default-src 'self'");
});

test("a client refused under a window limit is refused again by the server itself until Retry-After", async ({
  request,
}) => {
  const headers = { "x-forwarded-for": "192.0.2.241" };
  const lookup = (data: string) =>
    request.post("/api/orders/lookup", { headers: { ...headers, "content-type": "application/json" }, data });
  // 10 lookups an hour per address; the 11th is refused by the route, and the refusal stands.
  for (let i = 0; i < 10; i += 1) expect((await lookup('{"email":"nobody@example.com"}')).status()).toBe(202);
  const refused = await lookup('{"email":"nobody@example.com"}');
  expect(refused.status()).toBe(429);
  expect(refused.headers()["x-leadmarket-standing-refusal"]).toBeUndefined();
  // A body the route would answer 400 gets the same refusal: the server answered without Next.js.
  const again = await lookup("{");
  expect(again.status()).toBe(429);
  expect(await again.json()).toEqual(await refused.json());
  expect(Number(again.headers()["retry-after"])).toBeGreaterThan(0);
  expect(again.headers()["ratelimit-remaining"]).toBe("0");
  expect(again.headers()["x-leadmarket-standing-refusal"]).toBeUndefined();
});
