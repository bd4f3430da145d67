import type { Metadata } from "next";
import { OrderDetails } from "@/components/orders/order-details";
import { OrdersLookupForm } from "@/components/orders/orders-lookup-form";
import { ordersForToken, type ListedOrder } from "@/lib/orders/lookup";

// Find my orders: the form, or (with a valid sign-in link's token) the email's paid orders with
// fresh download links. The token is a secret: never indexed or cached, no referrer (next.config.ts).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Find my orders",
  description: "Get fresh download links for the lead lists you bought, by email.",
  robots: { index: false, follow: true },
};

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function OrdersList({ orders }: { orders: ListedOrder[] }) {
  const now = new Date();
  if (orders.length === 0) {
    return <p className="text-muted-foreground">There are no paid orders for this email address.</p>;
  }
  return (
    <ul className="space-y-6" aria-label="Your orders">
      {orders.map((order) => (
        <li key={order.key}>
          <OrderDetails orderKey={order.key} order={order} now={now} />
        </li>
      ))}
    </ul>
  );
}

export default async function OrdersPage({ searchParams }: Props) {
  const query = await searchParams;
  const token = typeof query.token === "string" && query.token.length <= 2000 ? query.token : null;
  const orders = token ? await ordersForToken(token) : null;
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-10 sm:px-6 lg:py-14">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">Find my orders</h1>
        <p className="text-muted-foreground">
          {orders
            ? "Your paid orders. Their download links work for 30 days from now."
            : "Enter the email address you gave when you bought. We mail you a sign-in link to your orders, with fresh download links."}
        </p>
      </div>
      {token && !orders && (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" role="alert">
          This sign-in link is invalid or has expired (links work for one hour). Ask for a new one below.
        </p>
      )}
      {orders ? <OrdersList orders={orders} /> : <OrdersLookupForm />}
    </div>
  );
}
