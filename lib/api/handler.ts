import "server-only";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { authenticateAdmin, type AdminSession } from "@/lib/auth/session";
import { readJsonBody } from "@/lib/api/body";
import { toErrorResponse } from "@/lib/api/errors";

// One wrapper for every route handler: resolve the caller, parse path params, query and JSON body
// with zod, and turn whatever is thrown into the JSON error shape. Handlers stay thin.
type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

type Options<P, Q, B, A extends boolean> = { admin?: A; params?: P; query?: Q; body?: B };

export type HandlerContext<P, Q, B, A extends boolean> = {
  request: NextRequest;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  admin: A extends true ? AdminSession : undefined;
};

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export function route<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  A extends boolean = false,
>(
  options: Options<P, Q, B, A>,
  handler: (context: HandlerContext<P, Q, B, A>) => Promise<Response | object>,
) {
  return async (request: NextRequest, context: RouteContext): Promise<Response> => {
    try {
      const admin = options.admin ? await authenticateAdmin(request) : undefined;
      const rawParams = context?.params ? await context.params : {};
      const params = options.params ? options.params.parse(rawParams) : undefined;
      const query = options.query
        ? options.query.parse(Object.fromEntries(request.nextUrl.searchParams))
        : undefined;
      const body = options.body ? options.body.parse(await readJsonBody(request)) : undefined;
      const result = await handler({ request, params, query, body, admin } as HandlerContext<P, Q, B, A>);
      return result instanceof Response ? result : Response.json(result);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}
