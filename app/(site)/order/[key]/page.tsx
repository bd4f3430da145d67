import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { OrderDetails } from "@/components/orders/order-details";
import { clientAddress } from "@/lib/api/client-address";
import { AppError } from "@/lib/errors";
import { orderSummary } from "@/lib/orders/summary";
import { orderKeyParams, type OrderSummary } from "@/lib/schemas/orders";

// The buyer's order by its download key. The key is a secret: the page is never indexed or
// cached, and next.config.ts sends it with `Referrer-Policy: no-referrer` so no link passes it on.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Your order",
  robots: { index: false, follow: false },
};

type Props = { params: Promise<{ key: string }> };

export default async function OrderPage({ params }: Props) {
  const parsed = orderKeyParams.safeParse(await params);
  if (!parsed.success) notFound();
  const { key } = parsed.data;
  let order: OrderSummary;
  try {
    order = await orderSummary(key, { clientIp: clientAddress(await headers()) });
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    if (error instanceof AppError && error.status === 429) {
      return (
        <div className="mx-auto max-w-2xl px-4 py-14 sm:px-6">
          <h1 className="text-3xl font-bold tracking-tight">Your order</h1>
          <p className="mt-4 text-muted-foreground" role="alert">
            {error.message}
          </p>
        </div>
      );
    }
    throw error;
  }
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
