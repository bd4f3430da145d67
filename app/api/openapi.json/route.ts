import { route } from "@/lib/api/handler";
import { openApiDocument } from "@/lib/api/openapi";

let body: string | undefined;

// GET /api/openapi.json - the public API's OpenAPI 3.1 document (rendered at /docs/api)
export const GET = route({}, async () => {
  // The document depends on the code alone: encoded once per process, and cacheable by clients.
  body ??= JSON.stringify(openApiDocument());
  return new Response(body, {
    headers: { "content-type": "application/json", "cache-control": "public, max-age=3600" },
  });
});
