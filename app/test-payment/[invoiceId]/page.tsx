import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CircleCheck, FlaskConical } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { findTestInvoice } from "@/lib/orders/test-invoice";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Test Payment", robots: { index: false } };

// The built-in invoice page of PAYMENTS_TEST_MODE: stands in for the provider's hosted page.
export default async function TestPaymentPage({ params }: { params: Promise<{ invoiceId: string }> }) {
  const { invoiceId } = await params;
  const invoice = /^[A-Za-z0-9_-]{1,128}$/.test(invoiceId) ? await findTestInvoice(invoiceId) : null;
  if (!invoice) notFound();
  const amount = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(
    invoice.amount,
  );

  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 p-4">
      <Card className="w-full max-w-md border-2 border-dashed border-amber-500">
        <CardHeader>
          <p className="flex items-center gap-2 text-sm font-semibold tracking-wide text-amber-700 uppercase">
            <FlaskConical aria-hidden /> Test mode
          </p>
          <CardTitle asChild>
            <h1 className="text-2xl">Test Payment</h1>
          </CardTitle>
          <CardDescription>
            This is the store&apos;s built-in test payment page. No money moves and no cryptocurrency is
            involved: paying here confirms the order exactly as the payment provider would.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Invoice</dt>
            <dd className="font-mono break-all">{invoice.invoiceId}</dd>
            <dt className="text-muted-foreground">Leads</dt>
            <dd>{invoice.leadTitle}</dd>
            <dt className="text-muted-foreground">Package</dt>
            <dd>
              {invoice.packageName} ({invoice.leadCount.toLocaleString("en-US")} leads)
            </dd>
            <dt className="text-muted-foreground">Amount</dt>
            <dd className="font-semibold">{amount}</dd>
          </dl>
          {invoice.paid && (
            <p
              role="status"
              className="mt-4 flex items-center gap-2 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm font-medium text-emerald-800"
            >
              <CircleCheck className="size-4 shrink-0" aria-hidden />
              This invoice is already paid.
            </p>
          )}
        </CardContent>
        <CardFooter>
          <form method="post" action={`/api/payment/test/${invoice.invoiceId}`} className="flex w-full gap-3">
            {invoice.paid ? (
              // Paying again changes nothing: this returns to the store the way a payment does.
              <Button type="submit" name="action" value="pay" className="flex-1">
                Return to the store
              </Button>
            ) : (
              <>
                <Button type="submit" name="action" value="cancel" variant="outline" className="flex-1">
                  Cancel
                </Button>
                <Button type="submit" name="action" value="pay" className="flex-1">
                  Pay {amount} (test)
                </Button>
              </>
            )}
          </form>
        </CardFooter>
      </Card>
    </main>
  );
}
