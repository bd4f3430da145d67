// Calls a route handler in-process, the way Next.js would, without a server.
import { NextRequest } from "next/server";

type Handler = (
  request: NextRequest,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>;

export type CallOptions = {
  method?: string;
  params?: Record<string, string>;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  token?: string;
};

export async function call(handler: Handler, url: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  let body = options.body;
  if (options.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(options.json);
  }
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  const request = new NextRequest(new URL(url, "http://localhost:3999"), {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  return handler(request, { params: Promise.resolve(options.params ?? {}) });
}

export async function callJson<T = Record<string, unknown>>(
  handler: Handler,
  url: string,
  options: CallOptions = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await call(handler, url, options);
  return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}
