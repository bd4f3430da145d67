import { route } from "@/lib/api/handler";
import { openApiDocument } from "@/lib/api/openapi";

// GET /api/openapi.json - the public API's OpenAPI 3.1 document (rendered at /docs/api)
export const GET = route({}, async () => openApiDocument());
