"use client";

import {
  PurchaseClosed,
  PurchaseComplete,
  PurchaseStart,
  PurchaseWaiting,
} from "@/components/category/purchase-views";
import { useExclusionList } from "@/components/category/use-exclusion-list";
import { usePurchase, type PurchaseProps } from "@/components/category/use-purchase";

/**
 * Buy Now, then payment status, Check Status / Reopen Payment, and the downloads once paid.
 * Rendered with a key per category, package and location, so each card starts afresh.
 */
export function PurchaseActions(props: PurchaseProps) {
  const purchase = usePurchase(props, useExclusionList(props));
  const { phase, payment } = purchase;
  if (phase === "complete" && payment) return <PurchaseComplete payment={payment} {...props} />;
  if (phase === "closed" && payment)
    return <PurchaseClosed status={purchase.status} onStartOver={purchase.startOver} />;
  if (payment) return <PurchaseWaiting purchase={purchase} payment={payment} />;
  return <PurchaseStart purchase={purchase} {...props} />;
}
