import type { ReactNode } from "react";
import type {
  AnySchema,
  ApiDocument,
  ApiDocumentOperation,
  ApiParameter,
  ApiResponse,
} from "@/lib/api/openapi";

// The OpenAPI document as a page, rendered on the server into plain HTML: endpoints grouped by
// tag, each with its parameters, request body, responses and examples. No script reaches the
// browser for it.

/** The last part of a local `$ref`: `#/components/responses/NotFound` is `NotFound`. */
const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

/** A schema in a few words: "string (uuid)", "one of: csv, xlsx", "array of object". */
function typeText(schema: AnySchema): string {
  if (typeof schema === "boolean") return schema ? "any" : "nothing";
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return `one of: ${schema.enum.map(String).join(", ")}`;
  if (schema.anyOf) return schema.anyOf.map(typeText).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  if (type === "array" && schema.items && !Array.isArray(schema.items))
    return `array of ${typeText(schema.items)}`;
  const notes = [
    typeof schema.format === "string" ? schema.format : null,
    typeof schema.contentMediaType === "string" ? `file: ${schema.contentMediaType}` : null,
  ].filter(Boolean);
  return notes.length ? `${type} (${notes.join(", ")})` : type;
}

function constraintText(schema: AnySchema): string {
  if (typeof schema === "boolean") return "";
  const bound = (low: unknown, high: unknown, unit: string) =>
    low !== undefined && high !== undefined
      ? `${low}–${high}${unit}`
      : high !== undefined
        ? `at most ${high}${unit}`
        : low !== undefined
          ? `at least ${low}${unit}`
          : "";
  return [
    bound(schema.minimum, schema.maximum, ""),
    bound(schema.minLength, schema.maxLength, " characters"),
    bound(schema.minItems, schema.maxItems, " items"),
    schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : "",
    typeof schema.description === "string" ? schema.description : "",
  ]
    .filter(Boolean)
    .join("; ");
}

const code = "rounded bg-muted px-1.5 py-0.5 font-mono text-[0.85em]";
const table =
  "w-full border-collapse text-left text-sm [&_td]:border-t [&_td]:py-2 [&_td]:pr-4 [&_td]:align-top [&_th]:pb-2 [&_th]:pr-4 [&_th]:font-semibold";

function Heading({ children }: { children: ReactNode }) {
  return (
    <h4 className="mt-6 mb-2 text-sm font-semibold tracking-wide text-muted-foreground uppercase">
      {children}
    </h4>
  );
}

function ExampleBlock({ label, value }: { label?: string; value: unknown }) {
  return (
    <figure className="mt-2">
      {label ? <figcaption className="mb-1 text-xs text-muted-foreground">{label}</figcaption> : null}
      <pre className="overflow-x-auto rounded-lg border bg-muted/40 p-3 font-mono text-xs leading-relaxed">
        {JSON.stringify(value, null, 2)}
      </pre>
    </figure>
  );
}

/** An object's properties as rows, one level deep; anything else as its type. */
function SchemaSummary({ schema }: { schema: AnySchema }) {
  if (typeof schema === "boolean" || !schema.properties) {
    return (
      <p className="text-sm">
        <code className={code}>{typeText(schema)}</code>
      </p>
    );
  }
  const required = new Set<string>(schema.required ?? []);
  return (
    <table className={table}>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Type</th>
          <th scope="col">Notes</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(schema.properties).map(([name, property]) => (
          <tr key={name}>
            <td>
              <code className={code}>{name}</code>
              {required.has(name) ? <span className="ml-1 text-xs text-destructive">required</span> : null}
            </td>
            <td className="break-words">{typeText(property)}</td>
            <td className="text-muted-foreground">{constraintText(property)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Parameters({ parameters }: { parameters: ApiParameter[] }) {
  return (
    <>
      <Heading>Parameters</Heading>
      <table className={table}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">In</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {parameters.map((parameter) => (
            <tr key={`${parameter.in}-${parameter.name}`}>
              <td>
                <code className={code}>{parameter.name}</code>
                {parameter.required ? <span className="ml-1 text-xs text-destructive">required</span> : null}
              </td>
              <td>{parameter.in}</td>
              <td className="break-words">{typeText(parameter.schema)}</td>
              <td className="text-muted-foreground">
                {[parameter.description, constraintText(parameter.schema)].filter(Boolean).join(" ")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function ResponseEntry({ status, response }: { status: string; response: ApiResponse }) {
  const headers = Object.values(response.headers ?? {}).map(({ $ref }) => refName($ref));
  return (
    <div className="rounded-lg border p-4">
      <dt className="flex flex-wrap items-baseline gap-2">
        <span className="font-mono text-sm font-bold">{status}</span>
        <span className="text-sm">{response.description}</span>
      </dt>
      <dd>
        {headers.length ? (
          <p className="mt-2 text-sm text-muted-foreground">
            Headers:{" "}
            {headers.map((name, index) => (
              <span key={name}>
                {index ? ", " : ""}
                <code className={code}>{name}</code>
              </span>
            ))}
          </p>
        ) : null}
        {Object.entries(response.content ?? {}).map(([mediaType, media]) => (
          <div key={mediaType} className="mt-2">
            <p className="text-xs text-muted-foreground">{mediaType}</p>
            {media.example !== undefined ? (
              <ExampleBlock value={media.example} />
            ) : (
              <SchemaSummary schema={media.schema} />
            )}
          </div>
        ))}
      </dd>
    </div>
  );
}

function Responses({
  responses,
  document,
}: {
  responses: ApiDocumentOperation["responses"];
  document: ApiDocument;
}) {
  return (
    <>
      <Heading>Responses</Heading>
      <dl className="space-y-4">
        {Object.entries(responses).map(([status, listed]) =>
          "$ref" in listed ? (
            // A shared error: its example is shown once, under "Errors and limits".
            <div key={status} className="rounded-lg border p-4">
              <dt className="flex flex-wrap items-baseline gap-2">
                <span className="font-mono text-sm font-bold">{status}</span>
                <a href={`#error-${status}`} className="text-sm hover:text-primary">
                  {document.components.responses[refName(listed.$ref)].description}
                </a>
              </dt>
            </div>
          ) : (
            <ResponseEntry key={status} status={status} response={listed} />
          ),
        )}
      </dl>
    </>
  );
}

function OperationEntry({
  method,
  path,
  operation,
  document,
}: {
  method: string;
  path: string;
  operation: ApiDocumentOperation;
  document: ApiDocument;
}) {
  const [text, limits] = operation.description.split("\n\n");
  return (
    <article id={operation.operationId} className="scroll-mt-24 rounded-xl border bg-card p-6">
      <h3 className="flex flex-wrap items-center gap-3">
        <span className="rounded-md bg-primary px-2 py-1 font-mono text-xs font-bold text-primary-foreground uppercase">
          {method}
        </span>
        <code className="font-mono text-base font-semibold break-all">{path}</code>
      </h3>
      <p className="mt-3 font-medium">{operation.summary}</p>
      <p className="mt-2 text-sm text-muted-foreground">{text}</p>
      {limits ? <p className="mt-2 text-sm text-muted-foreground">{limits}</p> : null}
      {operation.parameters?.length ? <Parameters parameters={operation.parameters} /> : null}
      {operation.requestBody ? (
        <>
          <Heading>Request body{operation.requestBody.required ? " (required)" : ""}</Heading>
          <p className="text-sm text-muted-foreground">{operation.requestBody.description}</p>
          {Object.entries(operation.requestBody.content).map(([mediaType, media]) => (
            <section key={mediaType} className="mt-3">
              <p className="mb-1 font-mono text-xs">{mediaType}</p>
              {media.schema ? <SchemaSummary schema={media.schema} /> : null}
              {Object.entries(media.examples ?? {}).map(([name, example]) => (
                <ExampleBlock
                  key={name}
                  label={`Example: ${example.summary ?? name}`}
                  value={example.value}
                />
              ))}
            </section>
          ))}
        </>
      ) : null}
      <Responses responses={operation.responses} document={document} />
    </article>
  );
}

export function ApiReference({ document }: { document: ApiDocument }) {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) =>
      operation ? [{ path, method, operation }] : [],
    ),
  );
  const byTag = document.tags.map((tag) => ({
    ...tag,
    operations: operations.filter(({ operation }) => operation.tags.includes(tag.name)),
  }));
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 lg:py-16">
      <header className="border-b pb-8">
        <p className="text-sm font-semibold tracking-wide text-primary uppercase">Developers</p>
        <h1 className="mt-2 text-4xl font-extrabold">API Documentation</h1>
        <p className="mt-5 text-lg text-muted-foreground">{document.info.description}</p>
        <p className="mt-3 text-sm text-muted-foreground">
          The same reference as an OpenAPI 3.1 document:{" "}
          <a href="/api/openapi.json" className="font-medium text-primary underline-offset-4 hover:underline">
            /api/openapi.json
          </a>{" "}
          (version {document.info.version}).
        </p>
      </header>
      <nav aria-labelledby="api-contents" className="mt-8">
        <h2 id="api-contents" className="text-lg font-bold">
          Endpoints
        </h2>
        <ul className="mt-3 grid gap-x-8 gap-y-4 sm:grid-cols-2">
          {byTag.map((tag) => (
            <li key={tag.name}>
              <a href={`#${tagId(tag.name)}`} className="font-semibold hover:text-primary">
                {tag.name}
              </a>
              <ul className="mt-1 space-y-1 text-sm">
                {tag.operations.map(({ path, method, operation }) => (
                  <li key={operation.operationId}>
                    <a
                      href={`#${operation.operationId}`}
                      className="text-muted-foreground hover:text-foreground"
                    >
                      <span className="font-mono text-xs uppercase">{method}</span> <code>{path}</code>
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="api-errors" className="mt-12">
        <h2 id="api-errors" className="text-2xl font-bold">
          Errors and limits
        </h2>
        <p className="mt-3 text-sm text-muted-foreground">
          Every error answers{" "}
          <code
            className={code}
          >{`{ "success": false, "message": "...", "errors"?: { "field": "..." } }`}</code>
          .
        </p>
        <dl className="mt-4 space-y-4">
          {Object.entries(document.components.responses).map(([name, response]) => {
            const status = errorStatus(document, name);
            return (
              <div key={name} id={`error-${status}`} className="scroll-mt-24">
                <ResponseEntry status={status} response={response} />
              </div>
            );
          })}
        </dl>
        <h3 className="mt-8 text-lg font-bold">Rate-limit headers</h3>
        <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
          {Object.entries(document.components.headers)
            .filter(([name]) => name.startsWith("RateLimit") || name === "Retry-After")
            .map(([name, header]) => (
              <div key={name} className="rounded-lg border p-3">
                <dt>
                  <code className={code}>{name}</code>
                </dt>
                <dd className="mt-1 text-muted-foreground">{header.description}</dd>
              </div>
            ))}
        </dl>
      </section>
      {byTag.map((tag) => (
        <section
          key={tag.name}
          id={tagId(tag.name)}
          aria-labelledby={`${tagId(tag.name)}-title`}
          className="mt-12 scroll-mt-24"
        >
          <h2 id={`${tagId(tag.name)}-title`} className="text-2xl font-bold">
            {tag.name}
          </h2>
          <p className="mt-2 text-muted-foreground">{tag.description}</p>
          <div className="mt-6 space-y-6">
            {tag.operations.map(({ path, method, operation }) => (
              <OperationEntry
                key={operation.operationId}
                method={method}
                path={path}
                operation={operation}
                document={document}
              />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}

/** The status a shared error answers with, as the operations list it. */
function errorStatus(document: ApiDocument, name: string): string {
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) {
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        if ("$ref" in response && refName(response.$ref) === name) return status;
      }
    }
  }
  return name;
}

const tagId = (name: string) => `tag-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
