import "server-only";

// Which leads an order may be given (docs/product-rules.md, "Delivery" and "Replacement claims"):
// leads of the order's category that no buyer reported (not quarantined), most recently verified
// first. A rule on which leads are sellable belongs in freshLeadsSql, the one query behind a first
// allocation and a replacement.

export type FreshLeadFilter = {
  categoryId: string;
  /** Leads already delivered in this order are never given to it again. */
  notInOrderId?: string;
};

/**
 * `SELECT id, verified_at` of at most `limit` sellable leads, best first. Values are appended to
 * `params` and referenced as $n, so the text can be embedded in a larger statement.
 */
export function freshLeadsSql(filter: FreshLeadFilter, limit: number, params: unknown[]): string {
  const where = [`category_id = $${params.push(filter.categoryId)}::uuid`, "quarantined_at IS NULL"];
  if (filter.notInOrderId) {
    // Hashed once: walking the category's newest leads past the order's own (often all of the
    // first leadCount) then costs one probe of a small hash per lead.
    where.push(
      `id NOT IN (SELECT lead_id FROM order_leads WHERE order_id = $${params.push(filter.notInOrderId)}::uuid)`,
    );
  }
  return `SELECT id, verified_at FROM leads WHERE ${where.join(" AND ")}
    ORDER BY verified_at DESC, id LIMIT $${params.push(limit)}`;
}
