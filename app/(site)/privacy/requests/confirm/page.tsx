import type { Metadata } from "next";
import { decodeJwt } from "jose";
import { PrivacyConfirm } from "@/components/privacy/privacy-confirm";
import { PRIVACY_KINDS, type PrivacyKind } from "@/lib/schemas/privacy";

// The mailed confirmation link lands here; the request runs only when the person clicks. The
// token is a secret: never indexed or cached.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Confirm your privacy request",
  robots: { index: false, follow: false },
};

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The request kind the link names, for the page's labels only (the server checks the signature). */
function kindOf(token: string): PrivacyKind | null {
  try {
    const kind = decodeJwt(token).kind;
    return PRIVACY_KINDS.find((known) => known === kind) ?? null;
  } catch {
    return null;
  }
}

export default async function PrivacyConfirmPage({ searchParams }: Props) {
  const query = await searchParams;
  const token = typeof query.token === "string" && query.token.length <= 2000 ? query.token : null;
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-10 sm:px-6 lg:py-14">
      <h1 className="text-3xl font-bold tracking-tight">Confirm your privacy request</h1>
      {token ? (
        <PrivacyConfirm token={token} kind={kindOf(token)} />
      ) : (
        <p role="alert" className="text-sm text-destructive">
          This confirmation link is incomplete. Open the link from the mail exactly as it was sent.
        </p>
      )}
    </div>
  );
}
