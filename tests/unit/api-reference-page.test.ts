// /docs/api's reference, rendered as the server renders it: every operation of the document with
// its method, path, parameters and examples, in plain HTML without a script.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ApiReference } from "@/components/docs/api-reference";
import { openApiDocument } from "@/lib/api/openapi";

const document = openApiDocument();
const html = renderToStaticMarkup(createElement(ApiReference, { document }));

describe("the API reference page", () => {
  it("lists every operation, grouped under its tag, with its method and path", () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        expect(html).toContain(`id="${operation!.operationId}"`);
        expect(html).toContain(`<code class="font-mono text-base font-semibold break-all">${path}</code>`);
        expect(html).toContain(`>${method}</span>`);
      }
    }
    for (const tag of document.tags) expect(html).toContain(`>${tag.name}</h2>`);
  });

  it("shows parameters, body fields, examples and the rate-limit headers", () => {
    expect(html).toContain(">pageSize</code>");
    expect(html).toContain(">suppressionListId</code>");
    expect(html).toContain("one of: csv, xlsx, hubspot, salesforce, json, ndjson");
    expect(html).toContain("&quot;packageType&quot;: &quot;starter&quot;");
    for (const header of ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"]) {
      expect(html).toContain(`>${header}</code>`);
    }
    expect(html).toContain('href="/api/openapi.json"');
    // Shared errors are shown once, with their example, and linked from each operation.
    expect(html).toContain('id="error-429"');
    expect(html).toContain('href="#error-429"');
    expect(html.split("Too many order lookups from your address").length - 1).toBe(1);
    expect(html).not.toContain("<script");
  });
});
