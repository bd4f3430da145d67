import type { Metadata } from "next";
import Link from "next/link";
import { PrintButton } from "@/components/orders/print-button";
import { Statement } from "@/components/orders/statement";
import { orderStatement } from "@/lib/orders/statement";
import { LimitedPage, loadByOrderKey } from "@/app/(site)/order/order-key";

// A paid order's printable due-diligence statement. Like the order page, its address holds the
// download key: never indexed or cached, and sent with `Referrer-Policy: no-referrer`.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Due-diligence statement",
  robots: { index: false, follow: false },
};

type Props = { params: Promise<{ key: string }> };

export default async function StatementPage({ params }: Props) {
  const loaded = await loadByOrderKey(params, orderStatement);
  if ("limited" in loaded) return <LimitedPage title="Due-diligence statement" message={loaded.limited} />;
  const { key, value: statement } = loaded;
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-10 sm:px-6 lg:py-14">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">Due-diligence statement</h1>
        <p className="text-muted-foreground">
          What the ICO&apos;s checklist for a bought marketing list asks, answered for this order as of{" "}
          {new Date().toISOString().slice(0, 10)}.
        </p>
        <div className="flex flex-wrap items-center gap-3 print:hidden">
          <PrintButton />
          <Link href={`/order/${key}`} className="text-sm font-medium text-primary underline">
            Back to your order
          </Link>
        </div>
      </div>
      <Statement statement={statement} orderKey={key} />
    </div>
  );
}
