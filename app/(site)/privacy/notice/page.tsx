import type { Metadata } from "next";
import Link from "next/link";
import { NoticeOptOut } from "@/components/privacy/notice-opt-out";
import { readNoticeLink, type NoticeLink } from "@/lib/privacy/notices";

// A privacy notice's link lands here (docs/product-rules.md, "UK compliance"): what we hold about
// the recipient, and one button that erases them. The token is a secret: never indexed or cached.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Your details at LeadMarket",
  robots: { index: false, follow: false },
};

/** Why a link has nothing to erase, in the page's words. */
function answer(link: NoticeLink): string {
  if (link.state === "opted_out")
    return "You have already opted out: your details are erased and your address is kept out of every later import.";
  if (link.state === "not_held") return "We no longer hold any details with your email address.";
  return "message" in link ? link.message : "";
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function NoticePage({ searchParams }: Props) {
  const query = await searchParams;
  const token = typeof query.token === "string" && query.token.length <= 2000 ? query.token : null;
  const link: NoticeLink = token
    ? await readNoticeLink(token)
    : {
        state: "invalid",
        message: "This opt-out link is incomplete. Open the link from the mail exactly as it was sent.",
      };
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-10 sm:px-6 lg:py-14">
      <h1 className="text-3xl font-bold tracking-tight">Your details at LeadMarket</h1>
      {link.state === "valid" && token ? (
        <>
          <p className="text-muted-foreground">
            We hold {link.held.length === 1 ? "this record" : `these ${link.held.length} records`} with your
            email address. Opting out erases {link.held.length === 1 ? "it" : "them"} at once, in every list,
            and keeps your address out of every later import.
          </p>
          {link.held.map((lead, index) => (
            <section key={`${index}-${lead.categoryTitle}`} className="rounded-lg border p-4">
              <h2 className="mb-2 font-semibold">{lead.categoryTitle}</h2>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                {lead.fields.map(([label, value]) => (
                  <div key={label} className="contents">
                    <dt className="text-muted-foreground">{label}</dt>
                    <dd className="break-all">{value || "(empty)"}</dd>
                  </div>
                ))}
                <dt className="text-muted-foreground">Delivered in orders</dt>
                <dd>{lead.deliveries.length}</dd>
              </dl>
            </section>
          ))}
          <NoticeOptOut token={token} />
        </>
      ) : (
        <p role="alert" className="rounded-lg border bg-muted/40 p-4 text-sm">
          {answer(link)}{" "}
          {link.state === "expired" && (
            <Link href="/privacy/requests" className="underline">
              Privacy requests
            </Link>
          )}
        </p>
      )}
    </div>
  );
}
