import type { Metadata } from "next";
import Link from "next/link";
import { OrderDetails } from "@/components/orders/order-details";
import { orderSummary } from "@/lib/orders/summary";
import { LimitedPage, loadByOrderKey } from "@/app/(site)/order/order-key";

// The buyer's order by its download key. The key is a secret: the page is never indexed or
// cached, and next.config.ts sends it with `Referrer-Policy: no-referrer` so no link passes it on.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Your order",
  robots: { index: false, follow: false },
};

type Props = { params: Promise<{ key: string }> };

export default async function OrderPage({ params }: Props) {
  const loaded = await loadByOrderKey(params, orderSummary);
  if ("limited" in loaded) return <LimitedPage title="Your order" message={loaded.limited} />;
  const { key, value: order } = loaded;
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-10 sm:px-6 lg:py-14">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">Your order</h1>
        <p className="text-muted-foreground">
          Bookmark this page: anyone with its address can download these leads, so keep it private.
        </p>
      </div>
      <OrderDetails orderKey={key} order={order} now={new Date()} />
      <p className="text-sm text-muted-foreground">
        Bought with an email address? See all your orders with{" "}
        <Link href="/orders" className="font-medium text-primary underline">
          Find my orders
        </Link>
        .
      </p>
    </div>
  );
}
