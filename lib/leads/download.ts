import "server-only";
import type { PoolClient } from "pg";
import { copyPool } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, tooManyRequests } from "@/lib/errors";
import { csvFile } from "@/lib/leads/export-csv";
import { orderXlsxFile } from "@/lib/leads/export-xlsx";
import { toWebStream } from "@/lib/leads/web-stream";
import { PACKAGE_COLUMNS, type PackageId } from "@/lib/packages";

// A download holds one of copyPool()'s connections for as long as its reader takes. So that no
// buyer can hold them all: at most 2 downloads in flight per order and 4 per client address in this
// process (429 beyond), a bounded wait for a connection (503 beyond), and a reader that takes
// nothing for DOWNLOAD_IDLE_SECONDS is dropped (connection released, response cut).
const PER_ORDER = 2;
const PER_ADDRESS = 4;
const RETRY_SECONDS = 10;
const CONNECTION_RETRY_SECONDS = 5;

class InFlight {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  take(key: string): boolean {
    const count = this.counts.get(key) ?? 0;
    if (count >= this.max) return false;
    this.counts.set(key, count + 1);
    return true;
  }

  give(key: string): void {
    const left = (this.counts.get(key) ?? 1) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}

const perOrder = new InFlight(PER_ORDER);
const perAddress = new InFlight(PER_ADDRESS);

async function copyConnection(): Promise<PoolClient> {
  try {
    return await copyPool().connect();
  } catch {
    throw new AppError(503, "Downloads are busy right now. Please try again in a few seconds.", undefined, {
      "Retry-After": String(CONNECTION_RETRY_SECONDS),
    });
  }
}

export type DownloadFormat = "csv" | "xlsx";

/** The paid order's file, streamed out of PostgreSQL, within the limits above. */
export async function openDownload(
  order: { id: string; packageType: PackageId },
  format: DownloadFormat,
  clientIp: string,
): Promise<ReadableStream<Uint8Array>> {
  if (!perOrder.take(order.id)) {
    throw tooManyRequests(
      `This order is already being downloaded ${PER_ORDER} times at once. Please try again when a download has finished.`,
      RETRY_SECONDS,
    );
  }
  if (!perAddress.take(clientIp)) {
    perOrder.give(order.id);
    throw tooManyRequests(
      `Your address already has ${PER_ADDRESS} downloads in progress. Please try again when one has finished.`,
      RETRY_SECONDS,
    );
  }
  const release = () => {
    perOrder.give(order.id);
    perAddress.give(clientIp);
  };
  let client: PoolClient;
  try {
    client = await copyConnection();
  } catch (error) {
    release();
    throw error;
  }
  const columns = PACKAGE_COLUMNS[order.packageType];
  const file =
    format === "xlsx" ? orderXlsxFile(client, order.id, columns) : csvFile(client, order.id, columns);
  // Whether read to its end, abandoned or dropped, the file closes once.
  file.once("close", release);
  return toWebStream(file, env().DOWNLOAD_IDLE_SECONDS * 1000);
}
