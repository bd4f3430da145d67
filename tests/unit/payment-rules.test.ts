// The rules that decide whether a provider payment pays an order and whether an update may apply.
import { describe, expect, it } from "vitest";
import { paymentCovers } from "@/lib/orders/settle";
import { statusRank } from "@/lib/payments/status";
import type { ProviderPayment } from "@/lib/payments/provider";

const order = { amount: 100, currency: "usd" };
const payment = (fields: Partial<ProviderPayment>): ProviderPayment => ({
  paymentId: "1",
  invoiceId: null,
  orderId: null,
  status: "finished",
  priceAmount: 100,
  priceCurrency: "usd",
  payAmount: 100.5,
  actuallyPaid: 100.5,
  payCurrency: "usdttrc20",
  actuallyPaidFiat: 99.9,
  ...fields,
});

describe("paymentCovers", () => {
  it("pays for a paid status with the full price, in any case of the status", () => {
    for (const status of ["confirmed", "sending", "finished", "PAID"]) {
      expect(paymentCovers(payment({ status }), order)).toEqual({ paid: true, problem: null });
    }
  });

  it("does not pay, and names no problem, while the provider has not confirmed", () => {
    for (const status of ["waiting", "confirming", "partially_paid", "expired"]) {
      expect(paymentCovers(payment({ status }), order)).toEqual({ paid: false, problem: null });
    }
  });

  it("refuses another currency, a lower or unknown price and short crypto, saying which", () => {
    expect(paymentCovers(payment({ priceCurrency: "eur" }), order)).toEqual({
      paid: false,
      problem: "Paid in eur, expected usd",
    });
    expect(paymentCovers(payment({ priceAmount: 99.99 }), order)).toEqual({
      paid: false,
      problem: "Paid value 99.99 is below the price 100",
    });
    expect(paymentCovers(payment({ priceAmount: null }), order)).toEqual({
      paid: false,
      problem: "Paid value unknown is below the price 100",
    });
    expect(paymentCovers(payment({ actuallyPaid: 100.4 }), order)).toEqual({
      paid: false,
      problem: "Received 100.4 of 100.5 in crypto",
    });
  });

  it("accepts an unreported currency or crypto amount, and ignores the moving fiat value", () => {
    expect(paymentCovers(payment({ priceCurrency: null }), order).paid).toBe(true);
    expect(paymentCovers(payment({ actuallyPaid: null }), order).paid).toBe(true);
    expect(paymentCovers(payment({ payAmount: null, actuallyPaid: 1 }), order).paid).toBe(true);
    expect(paymentCovers(payment({ actuallyPaidFiat: 50 }), order).paid).toBe(true);
    expect(paymentCovers(payment({ priceAmount: 200 }), order).paid).toBe(true);
  });
});

describe("statusRank", () => {
  it("orders a payment's progress, paid statuses last", () => {
    const progress = [
      "pending",
      "waiting",
      "confirming",
      "partially_paid",
      "failed",
      "confirmed",
      "sending",
      "finished",
    ];
    const ranks = progress.map(statusRank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(ranks).size).toBe(progress.length);
  });

  it("ranks equals together: the closed statuses, cancelled with waiting, PAID with finished", () => {
    expect(statusRank("expired")).toBe(statusRank("failed"));
    expect(statusRank("refunded")).toBe(statusRank("failed"));
    expect(statusRank("cancelled")).toBe(statusRank("waiting"));
    expect(statusRank("PAID")).toBe(statusRank("finished"));
    expect(statusRank("Finished")).toBe(statusRank("finished"));
  });

  it("ranks an unknown status with waiting, so it cannot overtake any real progress", () => {
    expect(statusRank("something_new")).toBe(statusRank("waiting"));
    expect(statusRank("something_new")).toBeLessThan(statusRank("confirming"));
  });
});
