import { NextResponse, type NextRequest } from "next/server";

// A path that is not valid percent-encoding (e.g. /api/categories/%E0%A4%A) makes Next.js's own
// parameter decoding throw, which would answer 500. Refuse it here, before any route runs.
export function proxy(request: NextRequest): NextResponse {
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return NextResponse.json({ success: false, message: "Malformed URL" }, { status: 400 });
  }
  return NextResponse.next();
}

export const config = {
  // Build assets have fixed names; everything else (pages and the API) is checked.
  matcher: "/((?!_next/static|_next/image).*)",
};
