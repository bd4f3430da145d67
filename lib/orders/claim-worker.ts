import "server-only";
import { badRequest } from "@/lib/errors";
import { workerTask } from "@/lib/off-thread";
import { addressesInText, MAX_REPORTED_ADDRESSES, TOO_MANY_ADDRESSES } from "@/lib/schemas/orders";

// A worker thread's entry (lib/off-thread.ts): a claim's CSV file (its blocks, joined here) to the
// addresses it reports, each once (compared without case, as the claim compares them); 400 for
// none or too many.
function claimAddresses(blocks: Uint8Array[]): string[] {
  const distinct = new Map<string, string>();
  for (const address of addressesInText(new TextDecoder().decode(Buffer.concat(blocks)))) {
    const key = address.toLowerCase();
    if (!distinct.has(key)) distinct.set(key, address);
    if (distinct.size > MAX_REPORTED_ADDRESSES)
      throw badRequest(TOO_MANY_ADDRESSES, { file: TOO_MANY_ADDRESSES });
  }
  if (distinct.size === 0) {
    throw badRequest("The file holds no email addresses", { file: "No email addresses found" });
  }
  return [...distinct.values()];
}

export default workerTask(claimAddresses);
