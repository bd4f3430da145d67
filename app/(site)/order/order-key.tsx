import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { clientAddress } from "@/lib/api/client-address";
import { AppError } from "@/lib/errors";
import type { Caller } from "@/lib/limits/caller";
import { orderKeyParams } from "@/lib/schemas/orders";

/** What an order page shows: the loaded value, or the message of a caller past its lookups. */
export type Loaded<T> = { key: string; value: T } | { limited: string };

/**
 * Reads an order page's key and loads what the page shows: 404 for a malformed, unknown or
 * unpaid key; a 429 (too many unknown keys from the caller) is the page's own message.
 */
export async function loadByOrderKey<T>(
  params: Promise<{ key: string }>,
  load: (key: string, caller: Caller) => Promise<T>,
): Promise<Loaded<T>> {
  const parsed = orderKeyParams.safeParse(await params);
  if (!parsed.success) notFound();
  const { key } = parsed.data;
  try {
    return { key, value: await load(key, { clientIp: clientAddress(await headers()) }) };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    if (error instanceof AppError && error.status === 429) return { limited: error.message };
    throw error;
  }
}

/** An order page's answer to a caller past its unknown lookups. */
export function LimitedPage({ title, message }: { title: string; message: string }) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-14 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 text-muted-foreground" role="alert">
        {message}
      </p>
    </div>
  );
}
