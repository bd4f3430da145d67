// The OpenAPI document: valid OpenAPI 3.1 (a maintained validator), every public route and method
// under app/api in it and nothing else, and every example true to the schema it illustrates.
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiRoutes } from "../support/api-routes";
import { API_OPERATIONS, openApiDocument } from "@/lib/api/openapi";
import { DOWNLOAD_FORMATS } from "@/lib/schemas/formats";

type Document = {
  paths: Record<string, Record<string, { parameters?: { name: string; schema: { enum?: string[] } }[] }>>;
};

const document = openApiDocument() as Document;

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openApiDocument()));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("names every public route and method under app/api, and only those", () => {
    // The admin's routes (their sign-in included) are not public.
    const routes = apiRoutes()
      .filter((route) => !route.admin && !route.path.startsWith("/api/admin/"))
      .flatMap((route) => route.methods.map((method) => `${method} ${route.path}`))
      .sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(routes);
  });

  it("documents each path parameter the path names, as the handler's schema reads it", () => {
    for (const operation of API_OPERATIONS) {
      const named = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const parsed = operation.params ? Object.keys((operation.params as z.ZodObject).shape).sort() : [];
      expect(parsed, operation.path).toEqual(named);
    }
  });

  it("holds examples their schemas accept", () => {
    for (const operation of API_OPERATIONS) {
      for (const { schema, examples } of Object.values(operation.body?.content ?? {})) {
        for (const example of Object.values(examples ?? {})) {
          if (!(schema instanceof z.ZodType)) continue;
          expect(
            schema.safeParse(example.value).error,
            `${operation.path} ${example.summary}`,
          ).toBeUndefined();
        }
      }
      for (const [status, answer] of Object.entries(operation.answers)) {
        if (!answer.schema) continue;
        expect(answer.schema.safeParse(answer.example).error, `${operation.path} ${status}`).toBeUndefined();
      }
    }
  });

  it("lists every download format the handler takes", () => {
    const formats = document.paths["/api/leads/download/{key}"].get.parameters!.find(
      (parameter) => parameter.name === "format",
    )!.schema.enum!;
    expect(formats).toEqual([...DOWNLOAD_FORMATS]);
  });
});
