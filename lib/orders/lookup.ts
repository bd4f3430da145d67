import "server-only";
import { assertWithinLimit, MAILS_PER_ADDRESS, takeToken } from "@/lib/limits/throttle";
import { signLinkToken, verifyLinkToken } from "@/lib/auth/link-token";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { queueMail } from "@/lib/mail/outbox";
import { DOWNLOAD_DAYS } from "@/lib/orders/links";
import { orderListingMail } from "@/lib/orders/mails";
import { swapsOf } from "@/lib/orders/heal";
import { invoiceSummarySelect, toInvoiceSummary } from "@/lib/orders/invoice";
import { optOutCounts } from "@/lib/orders/opt-outs";
import { replacementSummarySelect, toOrderSummary, toReplacementSummary } from "@/lib/orders/summary";
import type { Caller } from "@/lib/limits/caller";
import { orderViewSelect, toOrderView } from "@/lib/orders/view";
import type { OrderSummary } from "@/lib/schemas/orders";

// Find my orders (docs/product-rules.md): an email address gets a signed sign-in link, valid one hour,
// to a page that lists its paid orders with fresh download links. The answer never says whether
// the address bought anything.

const LOOKUPS_PER_ADDRESS = { max: 10, windowSeconds: 3600 };
const SIGN_IN_MINUTES = 60;
const AUDIENCE = "leadmarket-orders";

export function signOrdersToken(email: string, now = new Date()): Promise<string> {
  return signLinkToken({ audience: AUDIENCE, subject: email, validSeconds: SIGN_IN_MINUTES * 60 }, now);
}

/** The email a sign-in token was issued to, or null when it is invalid or expired at `now`. */
async function verifyOrdersToken(token: string, now = new Date()): Promise<string | null> {
  try {
    const payload = await verifyLinkToken(AUDIENCE, token, now);
    return typeof payload.sub === "string" ? payload.sub : null;
  } catch {
    return null;
  }
}

/**
 * Mails a sign-in link when the address has paid orders and has not had 3 such mails today.
 * Per address of the caller, 10 lookups an hour (429 after). Otherwise the same quiet answer.
 */
export async function requestOrderListing(email: string, caller: Caller): Promise<void> {
  await assertWithinLimit(
    { bucket: `order-lookup:${caller.clientIp}`, ...LOOKUPS_PER_ADDRESS },
    "Too many order lookups from your address. Please try again later.",
  );
  const paid = await db().order.findFirst({
    where: { buyerEmail: email, paidAt: { not: null } },
    select: { id: true },
  });
  if (!paid) return;
  if ((await takeToken({ bucket: `order-lookup-mail:${email}`, ...MAILS_PER_ADDRESS })) !== null) return;
  const token = await signOrdersToken(email);
  await queueMail(
    orderListingMail({
      to: email,
      signInUrl: `${env().PUBLIC_BASE_URL}/orders?token=${encodeURIComponent(token)}`,
      validMinutes: SIGN_IN_MINUTES,
    }),
    undefined,
    "order-lookup",
  );
}

export type ListedOrder = OrderSummary & { key: string; createdAt: string };

/**
 * The paid orders of the email a valid sign-in token names, newest first. Opening the list renews
 * each order's download links for 30 days from `now`. Null when the token is invalid or expired.
 */
export async function ordersForToken(token: string, now = new Date()): Promise<ListedOrder[] | null> {
  const email = await verifyOrdersToken(token, now);
  if (!email) return null;
  const expires = new Date(now.getTime() + DOWNLOAD_DAYS * 24 * 3600 * 1000);
  await db().order.updateMany({
    where: { buyerEmail: email, paidAt: { not: null } },
    data: { downloadExpiresAt: expires },
  });
  const rows = await db().order.findMany({
    where: { buyerEmail: email, paidAt: { not: null } },
    orderBy: { paidAt: "desc" },
    take: 200,
    select: {
      ...orderViewSelect,
      createdAt: true,
      replacement: { select: replacementSummarySelect },
      invoice: { select: invoiceSummarySelect },
    },
  });
  const ids = rows.map((row) => row.id);
  const [swaps, optOuts] = await Promise.all([swapsOf(ids), optOutCounts(ids)]);
  return rows.map(({ replacement, invoice, ...row }) => ({
    ...toOrderSummary(
      toOrderView(row),
      replacement && toReplacementSummary(replacement),
      swaps.get(row.id)!,
      invoice && toInvoiceSummary(invoice),
      optOuts.get(row.id)!,
    ),
    key: row.downloadKey,
    createdAt: row.createdAt.toISOString(),
  }));
}
