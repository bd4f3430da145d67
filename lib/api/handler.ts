import "server-only";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { verifyAdminToken, type AdminSession } from "@/lib/auth/session";
import { readBoundedText, readJsonBody } from "@/lib/api/body";
import { clientAddress } from "@/lib/api/client-address";
import { toErrorResponse } from "@/lib/api/errors";
import { LimitReachedError, unauthorized } from "@/lib/errors";
import { RequestUpload } from "@/lib/api/upload";
import { queryRecord } from "@/lib/http/query-values.mjs";
import { STANDING_REFUSAL_HEADER } from "@/lib/http/standing-refusals.mjs";
import type { Caller } from "@/lib/limits/caller";
import { LimitReport, runReported } from "@/lib/limits/rate-limit-headers";

// One wrapper for every route handler: resolve the caller, parse path params, query and JSON body
// with zod, and turn whatever is thrown into the JSON error shape, with the RateLimit-* headers of
// the limits the request was counted against (lib/limits/rate-limit-headers.ts). Handlers stay
// thin, and neither they nor domain code see the request: they get its parts as values.
type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

/**
 * A body the route reads itself: "text" is at most 16 KB (a provider's callback: a payment record
 * is about 1 KB), "form" is a URL-encoded form of at most 1 KB (the test payment page's one
 * field). 413 beyond either, never read to its end.
 */
type RawBody = "text" | "form" | undefined;
type RawOut<R> = R extends "text" ? string : R extends "form" ? URLSearchParams : undefined;
const MAX_TEXT_BYTES = 16 * 1024;
const MAX_FORM_BYTES = 1024;

type Options<P, Q, B, A extends boolean, U extends boolean, R extends RawBody> = {
  admin?: A;
  params?: P;
  query?: Q;
  body?: B;
  /** The route takes an upload: `upload` reads its body through an upload slot. */
  upload?: U;
  rawBody?: R;
  /**
   * Every request to the route's path with the same kind of body (content type) is counted against
   * the same window limits (the caller's address, ids in the path): when one of them refuses, the
   * refusal stands until Retry-After, and the custom server gives it again itself
   * (lib/http/standing-refusals.mjs).
   */
  standingLimits?: boolean;
};

export type HandlerContext<P, Q, B, A extends boolean, U extends boolean, R extends RawBody = undefined> = {
  caller: Caller;
  /** The request's cookies by name. */
  cookies: Readonly<Record<string, string>>;
  headers: Headers;
  /** The request came over https (a cookie set in answer is then Secure). */
  https: boolean;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  rawBody: RawOut<R>;
  upload: U extends true ? RequestUpload : undefined;
  admin: A extends true ? AdminSession : undefined;
};

/** The admin behind the request's bearer token, or 401. */
async function authenticateAdmin(headers: Headers): Promise<AdminSession> {
  const match = /^Bearer\s+(\S+)$/i.exec(headers.get("authorization") ?? "");
  if (!match) throw unauthorized();
  return verifyAdminToken(match[1]);
}

async function readRawBody(
  request: NextRequest,
  kind: RawBody,
): Promise<string | URLSearchParams | undefined> {
  if (kind === "text") return readBoundedText(request, MAX_TEXT_BYTES);
  if (kind === "form") return new URLSearchParams(await readBoundedText(request, MAX_FORM_BYTES));
  return undefined;
}

/** `response` with `headers` added; a copy when its own are immutable (Response.redirect()). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  const entries = Object.entries(headers);
  if (entries.length === 0) return response;
  const merged = new Headers(response.headers);
  for (const [name, value] of entries) merged.set(name, value);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: merged,
  });
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export function route<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  A extends boolean = false,
  U extends boolean = false,
  R extends RawBody = undefined,
>(
  options: Options<P, Q, B, A, U, R>,
  handler: (context: HandlerContext<P, Q, B, A, U, R>) => Promise<Response | object>,
) {
  return async (request: NextRequest, context: RouteContext): Promise<Response> => {
    let upload: RequestUpload | undefined;
    const limits = new LimitReport();
    try {
      const caller = { clientIp: clientAddress(request.headers) };
      if (options.upload) upload = new RequestUpload(request, caller.clientIp);
      const admin = options.admin ? await authenticateAdmin(request.headers) : undefined;
      const rawParams = context?.params ? await context.params : {};
      const params = options.params ? options.params.parse(rawParams) : undefined;
      // A key given twice is a comma list: a list takes both spellings, and a number, choice or id
      // given twice fails its schema (a 400) instead of one value silently winning.
      const query = options.query
        ? options.query.parse(queryRecord(request.nextUrl.searchParams))
        : undefined;
      const body = options.body ? options.body.parse(await readJsonBody(request)) : undefined;
      const rawBody = await readRawBody(request, options.rawBody);
      const cookies = Object.fromEntries(request.cookies.getAll().map(({ name, value }) => [name, value]));
      const https = request.nextUrl.protocol === "https:";
      const handlerContext = {
        caller,
        cookies,
        headers: request.headers,
        https,
        params,
        query,
        body,
        rawBody,
        upload,
        admin,
      };
      const result = await runReported(limits, () =>
        handler(handlerContext as HandlerContext<P, Q, B, A, U, R>),
      );
      return withHeaders(result instanceof Response ? result : Response.json(result), limits.headers());
    } catch (error) {
      const standing = options.standingLimits && error instanceof LimitReachedError;
      return withHeaders(toErrorResponse(error), {
        ...limits.headers(),
        ...(standing ? { [STANDING_REFUSAL_HEADER]: "1" } : {}),
      });
    } finally {
      upload?.close();
    }
  };
}
