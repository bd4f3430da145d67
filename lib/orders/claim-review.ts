import "server-only";
import { deleteAmong, lockCategory, releaseAmong } from "@/lib/categories/quarantine";
import { db, transaction, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/errors";
import { maskEmail } from "@/lib/mail/address";
import type { QuarantineClaimDto, QuarantineClaimsQuery, ReviewedLeadDto } from "@/lib/schemas/admin";

// The admin's review per replacement claim (docs/product-rules.md, "Replacement claims"): the
// accepted claims of a category whose reported leads are flagged now (reported by buyers of two or
// more orders, still on sale) or held under the 20% cap, who filed them and when, each lead with the
// verdict of the claim's check. Flagged leads are kept on sale or deleted per claim here; held rows
// are replaced or declined in lib/orders/replacement/held-review.ts.

/** Reported leads listed per claim; the count says how many there are in all. */
export const LEADS_PER_CLAIM = 100;

type ClaimRow = {
  id: bigint;
  order_id: string;
  payment_id: string;
  buyer_email: string | null;
  package_type: QuarantineClaimDto["packageType"];
  lead_count: number;
  created_at: Date;
  reported: number;
  counted: number;
  replaced: number;
  invalid_confirmed: number;
  verified_deliverable: number;
  held_for_review: number;
  flagged: number;
};

type LeadRow = {
  claim_id: bigint;
  lead_id: bigint;
  email: string;
  verdict: ReviewedLeadDto["verdict"];
  replaced: boolean;
  held: boolean;
  flagged: boolean;
  email_status: ReviewedLeadDto["emailStatus"];
  reported_by_orders: number;
};

/**
 * The category's claims awaiting the admin: those with flagged leads (from the partial index on
 * flagged leads) and those with rows held under the 20% cap.
 */
function pendingClaims(categoryId: string) {
  return Prisma.sql`
    SELECT rr.claim_id FROM leads l JOIN replacement_reports rr ON rr.lead_id = l.id
     WHERE l.category_id = ${categoryId}::uuid AND l.flagged_at IS NOT NULL
    UNION
    SELECT rr.claim_id FROM replacement_reports rr JOIN orders o ON o.id = rr.order_id
     WHERE o.category_id = ${categoryId}::uuid AND rr.held`;
}

/** One page of the category's claims awaiting review, newest first, and their total. */
export async function listQuarantineClaims(
  categoryId: string,
  query: QuarantineClaimsQuery,
): Promise<{ claims: QuarantineClaimDto[]; total: number }> {
  const category = await db().category.findUnique({ where: { id: categoryId }, select: { id: true } });
  if (!category) throw notFound("Category not found");
  const claims = await db().$queryRaw<(ClaimRow & { total: number })[]>`
    SELECT rc.id, rc.order_id, COALESCE(o.provider_payment_id, o.invoice_id, o.id::text) AS payment_id,
           o.buyer_email, o.package_type::text AS package_type, o.lead_count, rc.created_at, rc.reported,
           rc.counted, rc.replaced, rc.invalid_confirmed, rc.verified_deliverable,
           (SELECT count(*)::int FROM replacement_reports rr WHERE rr.claim_id = rc.id AND rr.held)
             AS held_for_review,
           (SELECT count(*)::int FROM replacement_reports rr JOIN leads l ON l.id = rr.lead_id
             WHERE rr.claim_id = rc.id AND l.flagged_at IS NOT NULL) AS flagged,
           (count(*) OVER ())::int AS total
      FROM (${pendingClaims(categoryId)}) pending
      JOIN replacement_claims rc ON rc.id = pending.claim_id
      JOIN orders o ON o.id = rc.order_id
     ORDER BY rc.created_at DESC, rc.id DESC
     LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`;
  const total = claims[0]?.total ?? (query.page > 1 ? await countClaims(categoryId) : 0);
  if (claims.length === 0) return { claims: [], total };

  const leads = await db().$queryRaw<LeadRow[]>`
    SELECT claim_id, lead_id, email, verdict, replaced, held, flagged, email_status, reported_by_orders FROM (
      SELECT rr.claim_id, l.id AS lead_id, l.email, rr.verdict, rr.replaced, rr.held,
             l.flagged_at IS NOT NULL AS flagged,
             l.email_status::text AS email_status,
             (SELECT count(DISTINCT x.order_id)::int FROM replacement_reports x WHERE x.lead_id = l.id)
               AS reported_by_orders,
             row_number() OVER (PARTITION BY rr.claim_id ORDER BY l.id) AS n
        FROM replacement_reports rr JOIN leads l ON l.id = rr.lead_id
       WHERE rr.claim_id = ANY(${claims.map((claim) => claim.id)}::bigint[])
         AND (l.flagged_at IS NOT NULL OR rr.held)
    ) listed
    WHERE n <= ${LEADS_PER_CLAIM}
    ORDER BY claim_id, lead_id`;
  const byClaim = new Map<bigint, ReviewedLeadDto[]>();
  for (const lead of leads) {
    const list = byClaim.get(lead.claim_id) ?? [];
    list.push({
      leadId: lead.lead_id.toString(),
      email: lead.email,
      verdict: lead.verdict,
      replaced: lead.replaced,
      held: lead.held,
      flagged: lead.flagged,
      emailStatus: lead.email_status,
      reportedByOrders: lead.reported_by_orders,
    });
    byClaim.set(lead.claim_id, list);
  }
  return {
    total,
    claims: claims.map((claim) => ({
      claimId: claim.id.toString(),
      orderId: claim.order_id,
      paymentId: claim.payment_id,
      buyerEmail: claim.buyer_email ? maskEmail(claim.buyer_email) : "",
      packageType: claim.package_type,
      leadCount: claim.lead_count,
      claimedAt: claim.created_at.toISOString(),
      reported: claim.reported,
      counted: claim.counted,
      replaced: claim.replaced,
      invalidConfirmed: claim.invalid_confirmed,
      verifiedDeliverable: claim.verified_deliverable,
      heldForReview: claim.held_for_review,
      flagged: claim.flagged,
      leads: byClaim.get(claim.id) ?? [],
    })),
  };
}

/** The total for a page past the last one (the page's own rows carry it otherwise). */
async function countClaims(categoryId: string): Promise<number> {
  const [row] = await db().$queryRaw<{ total: number }[]>`
    SELECT count(*)::int AS total FROM (${pendingClaims(categoryId)}) pending`;
  return row.total;
}

type ClaimAction = (tx: Tx, categoryId: string, among: Prisma.LeadWhereInput) => Promise<number>;

/** Runs a release or delete on the claim's flagged leads, under the category's lock. */
function onClaim(action: ClaimAction) {
  return (categoryId: string, claimId: string): Promise<number> =>
    transaction(async (tx) => {
      await lockCategory(tx, categoryId);
      const claim = await tx.replacementClaim.findFirst({
        where: { id: BigInt(claimId), order: { categoryId } },
        select: { id: true },
      });
      if (!claim) throw notFound("Claim not found");
      return action(tx, categoryId, { reports: { some: { claimId: claim.id } } });
    });
}

/** Keeps the claim's flagged leads on sale, clearing their flags; answers how many. */
export const releaseClaim = onClaim(releaseAmong);

/**
 * Takes the claim's flagged leads off the shelf: deleted when no order delivered them, else
 * kept in those buyers' files marked invalid. Answers how many. A catalogue change.
 */
export const deleteClaim = onClaim(deleteAmong);
