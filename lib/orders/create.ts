import "server-only";
import { AppError, conflict, notFound } from "@/lib/errors";
import { assertWithinLimit } from "@/lib/limits/throttle";
import { DEFAULT_LOCATION, LOCATION_NAMES, type Location } from "@/lib/location";
import { EMAIL_QUALITY_LABELS, type EmailQuality } from "@/lib/email-quality";
import { findCategory } from "@/lib/categories/public";
import { db } from "@/lib/db";
import { countBoughtBefore } from "@/lib/leads/allocation";
import type { LeadScope } from "@/lib/leads/eligible";
import { env } from "@/lib/env";
import type { Caller } from "@/lib/limits/caller";
import { returnUrlFor } from "@/lib/orders/links";
import { getPaymentProvider } from "@/lib/payments";
import { getPackage, type PackageId } from "@/lib/packages";
import type { CreatePaymentAnswer } from "@/lib/schemas/payment";
import { segmentCounts } from "@/lib/segments/counts";
import type { Segment } from "@/lib/segments/vocabularies";
import { Prisma } from "@/lib/generated/prisma/client";
import { timedQuery, withQueryPermit } from "@/lib/limits/expensive-queries";
import { countAddressCheck, countListCheck, listedLeads } from "@/lib/suppression/counts";
import { keepList, ownedList, type OwnedList } from "@/lib/suppression/lists";

// Creating an order: the order row first, then the provider's invoice for it.

const ORDER_WINDOW_SECONDS = 600;

const n = (value: number) => value.toLocaleString("en-US");

const NOT_CONFIGURED =
  "Payments are not configured: the store owner must add a NOWPayments API key in Settings (or set NOWPAYMENTS_API_KEY).";

// An open checkout of the same browser, category and package is handed back instead of a new
// invoice while it can still be paid: nothing paid, no payment started, younger than a day.
const REUSABLE_FOR_MS = 24 * 3600 * 1000;
// An order's exclusion list outlives its checkout: an order can be paid for a day, and a late
// confirmation still allocates (docs/product-rules.md, "Exclusion lists").
const LIST_KEPT_FOR_MS = 48 * 3600 * 1000;

export type CreatePaymentInput = {
  categoryId: string;
  packageType: PackageId;
  location?: Location;
  /** Only leads of this segment fill the order (lib/segments); null or absent: the whole list. */
  segment?: Segment | null;
  /** Only leads of these email statuses fill the order (lib/email-quality.ts); absent: any. */
  emailQuality?: EmailQuality;
  email?: string;
  /** The caller's exclusion list (lib/suppression): none of its contacts is delivered. */
  suppressionListId?: string;
};

type Scope = LeadScope & { segment: Segment | null; emailQuality: EmailQuality };

/**
 * The caller's list (its limits counted), this browser's open checkout of the same choice, and
 * how many of the scope's leads the email bought before and the list names. A new order's limit
 * is counted before either count; how many the list names is never said before payment
 * (lib/suppression/counts.ts). The list is not counted once what the email bought leaves too few.
 */
async function countLeftOut(
  input: CreatePaymentInput,
  caller: Caller & { browserId: string },
  scope: Scope,
  packageId: PackageId,
  available: number,
) {
  const leadCount = getPackage(packageId)!.leadCount;
  let list: OwnedList | null = null;
  if (input.suppressionListId) {
    await countAddressCheck(caller);
    list = await ownedList(input.suppressionListId, caller);
    await countListCheck(list);
  }
  const open = await db().order.findFirst({
    where: {
      browserId: caller.browserId,
      categoryId: scope.categoryId,
      packageType: packageId,
      location: scope.country,
      segment: scope.segment ? { equals: scope.segment } : { equals: Prisma.DbNull },
      emailQuality: scope.emailQuality,
      suppressionListId: list?.id ?? null,
      paidAt: null,
      providerPaymentId: null,
      status: { in: ["pending", "waiting"] },
      invoiceUrl: { not: null },
      createdAt: { gt: new Date(Date.now() - REUSABLE_FOR_MS) },
    },
    orderBy: { createdAt: "desc" },
    select: { id: true, downloadKey: true, invoiceUrl: true },
  });
  const limit = env().ORDER_CREATE_LIMIT;
  if (!open && limit > 0) {
    await assertWithinLimit(
      { bucket: `create-order:${caller.clientIp}`, max: limit, windowSeconds: ORDER_WINDOW_SECONDS },
      "Too many orders from your address. Please complete an open payment or try again in a few minutes.",
    );
  }
  const { email } = input;
  if (!email && !list) return { list, open, bought: 0, listed: 0 };
  const counts = await timedQuery(async (tx) => {
    const bought = email ? await countBoughtBefore(scope, email, tx) : 0;
    if (available - bought < leadCount || !list) return { bought, listed: 0 };
    return { bought, listed: await listedLeads(tx, list, scope, email) };
  });
  return { list, open, ...counts };
}

/**
 * Records the order, then asks the provider for an invoice. Price and lead count come from the
 * package table only. A provider failure leaves the order as status "error" with `lastError` set
 * (never half-written with an invoice) and answers 502; the buyer simply tries again.
 * `paymentId` in the answer is the order's download key, never a provider id.
 */
export async function createPayment(
  input: CreatePaymentInput,
  caller: Caller & { browserId: string },
): Promise<CreatePaymentAnswer> {
  const pkg = getPackage(input.packageType)!;
  const location = input.location ?? DEFAULT_LOCATION;
  // Only public categories sell, and only as many leads as the chosen country holds.
  const category = await findCategory(input.categoryId);
  if (!category) throw notFound("Category not found");
  // A segment is counted again here, from the same rollup the category page shows.
  const segment = input.segment ?? null;
  const emailQuality = input.emailQuality ?? "any";
  const narrowed = segment !== null || emailQuality !== "any";
  const available = narrowed
    ? (await segmentCounts(category._id, location, segment, emailQuality)).count
    : category.countByLocation[location];
  const quality = emailQuality === "any" ? "" : ` (${EMAIL_QUALITY_LABELS[emailQuality].toLowerCase()})`;
  const where = `${segment ? " in this segment" : ""}${location === DEFAULT_LOCATION ? "" : ` in the ${LOCATION_NAMES[location]}`}${quality}`;
  const widen = `${segment ? ", widen the segment" : ""}${emailQuality === "any" ? "" : ", accept more email statuses"}`;
  const fewer = `fewer than the ${pkg.leadsLabel} the ${pkg.name} package includes. Choose a smaller package${widen} or request custom leads.`;
  if (available < pkg.leadCount) {
    throw conflict(`${category.title} has ${n(available)} leads${where}, ${fewer}`);
  }
  // Leads the buyer's email bought before, and those their list names, are never delivered:
  // counted before any invoice, each once. Counting them is costly, so from the first limit to the
  // last count the request holds a permit (lib/limits/expensive-queries.ts).
  const scope = { categoryId: category._id, country: location, segment, emailQuality };
  const costly = Boolean(input.email || input.suppressionListId);
  const { list, open, bought, listed } = costly
    ? await withQueryPermit(caller.clientIp, () => countLeftOut(input, caller, scope, pkg.id, available))
    : await countLeftOut(input, caller, scope, pkg.id, available);
  if (available - bought < pkg.leadCount) {
    throw conflict(
      `${category.title} has ${n(available)} leads${where}; you bought ${n(bought)} of them before, which leaves ${n(available - bought)}, ${fewer}`,
    );
  }
  if (available - bought - listed < pkg.leadCount) {
    const before = bought ? `the ${n(bought)} you bought before and ` : "";
    throw conflict(
      `${category.title} has ${n(available)} leads${where}; what is left without ${before}the contacts on your list is ${fewer}`,
    );
  }
  const provider = await getPaymentProvider();
  if (!provider) throw new AppError(503, NOT_CONFIGURED);

  if (list) await keepList(db(), list.id, new Date(Date.now() + LIST_KEPT_FOR_MS), caller);
  if (open) {
    if (input.email || list) {
      await db().order.update({
        where: { id: open.id },
        data: {
          ...(input.email ? { buyerEmail: input.email, excludedBought: bought } : {}),
          ...(list ? { excludedListed: listed } : {}),
        },
      });
    }
    return { success: true, paymentId: open.downloadKey, invoiceUrl: open.invoiceUrl! };
  }

  const order = await db().order.create({
    data: {
      categoryId: category._id,
      leadTitle: category.title,
      packageType: pkg.id,
      leadCount: pkg.leadCount,
      location,
      segment: segment ?? Prisma.DbNull,
      emailQuality,
      amount: pkg.price,
      currency: "usd",
      buyerEmail: input.email ?? null,
      excludedBought: input.email ? bought : null,
      suppressionListId: list?.id ?? null,
      excludedListed: list ? listed : null,
      browserId: caller.browserId,
      clientIp: caller.clientIp,
      events: { create: { status: "pending", note: "Order created" } },
    },
    select: { id: true, downloadKey: true },
  });
  const returnUrl = returnUrlFor(category._id, pkg.id, order.downloadKey, location);
  let invoice;
  try {
    invoice = await provider.createInvoice({
      orderId: order.id,
      priceAmount: pkg.price,
      priceCurrency: "usd",
      description: `${category.title} - ${pkg.name} package (${pkg.leadCount} leads${location === DEFAULT_LOCATION ? "" : `, ${location}`})`,
      successUrl: returnUrl,
      cancelUrl: `${returnUrl}&cancelled=1`,
      ipnCallbackUrl: `${env().PUBLIC_BASE_URL}/api/payment/ipn`,
    });
  } catch (error) {
    const message = (error as Error).message;
    console.error(`[payments] invoice for order ${order.id} failed: ${message}`);
    await db().order.update({
      where: { id: order.id },
      data: { status: "error", lastError: message, events: { create: { status: "error", note: message } } },
    });
    throw new AppError(502, "The payment provider could not create an invoice. Please try again.");
  }
  await db().order.update({
    where: { id: order.id },
    data: { invoiceId: invoice.invoiceId, invoiceUrl: invoice.invoiceUrl },
  });
  return { success: true, paymentId: order.downloadKey, invoiceUrl: invoice.invoiceUrl };
}
