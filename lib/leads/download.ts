import "server-only";
import type { Readable } from "node:stream";
import type { PoolClient } from "pg";
import { copyPool } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, tooManyRequests } from "@/lib/errors";
import { CONTENT_TYPES, CSV_TYPE } from "@/lib/content-types";
import { crmHeaders } from "@/lib/leads/crm-headers";
import { csvFile } from "@/lib/leads/export-csv";
import { jsonFile } from "@/lib/leads/export-json";
import { orderXlsxFile } from "@/lib/leads/export-xlsx";
import type { DownloadFormat } from "@/lib/schemas/formats";
import { toWebStream } from "@/lib/leads/web-stream";
import { InFlight } from "@/lib/http/in-flight.mjs";
import { PACKAGE_COLUMNS, type Column, type PackageId } from "@/lib/packages";

// A download holds one of copyPool()'s connections for as long as its reader takes. So that no
// buyer can hold them all: at most 2 downloads in flight per order and 4 per client address in this
// process (429 beyond), a bounded wait for a connection (503 beyond), and a reader that takes
// nothing for DOWNLOAD_IDLE_SECONDS is dropped (connection released, response cut).
const PER_ORDER = 2;
const PER_ADDRESS = 4;
const RETRY_SECONDS = 10;
const CONNECTION_RETRY_SECONDS = 5;

const perOrder = new InFlight();
const perAddress = new InFlight();

async function copyConnection(): Promise<PoolClient> {
  try {
    return await copyPool().connect();
  } catch {
    throw new AppError(503, "Downloads are busy right now. Please try again in a few seconds.", undefined, {
      "Retry-After": String(CONNECTION_RETRY_SECONDS),
    });
  }
}

/** Each format's content type. */
export const DOWNLOAD_TYPES: Record<DownloadFormat, string> = {
  csv: CSV_TYPE,
  xlsx: CONTENT_TYPES.xlsx,
  hubspot: CSV_TYPE,
  salesforce: CSV_TYPE,
  json: "application/json",
  ndjson: "application/x-ndjson",
};

/** The order's file in `format`, streamed out of COPY over `client`: the same rows in every format. */
function orderFile(client: PoolClient, orderId: string, columns: Column[], format: DownloadFormat): Readable {
  switch (format) {
    case "csv":
      return csvFile(client, orderId, columns);
    case "xlsx":
      return orderXlsxFile(client, orderId, columns);
    case "hubspot":
    case "salesforce":
      return csvFile(client, orderId, columns, crmHeaders(columns, format));
    case "json":
    case "ndjson":
      return jsonFile(client, orderId, columns, format === "ndjson");
  }
}

/** The paid order's file, streamed out of PostgreSQL, within the limits above. */
export async function openDownload(
  order: { id: string; packageType: PackageId },
  format: DownloadFormat,
  clientIp: string,
): Promise<ReadableStream<Uint8Array>> {
  if (!perOrder.take(order.id, PER_ORDER)) {
    throw tooManyRequests(
      `This order is already being downloaded ${PER_ORDER} times at once. Please try again when a download has finished.`,
      RETRY_SECONDS,
    );
  }
  if (!perAddress.take(clientIp, PER_ADDRESS)) {
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
  const file = orderFile(client, order.id, PACKAGE_COLUMNS[order.packageType], format);
  // Whether read to its end, abandoned or dropped, the file closes once.
  file.once("close", release);
  return toWebStream(file, env().DOWNLOAD_IDLE_SECONDS * 1000);
}
