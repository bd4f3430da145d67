// The budgets of expensive public queries (docs/product-rules.md, "Expensive public queries"), against PostgreSQL:
// an exclusion list's availability and create say only whether each package can be filled, never
// how many of our leads a list names (a one-address list would tell whether that address is ours);
// at most 4 such requests hold a connection at once (1 per address, its next ones waiting their
// turn), so /api/health still finds one, the next one answers 503 with Retry-After, a statement
// past the timeout answers 503 and
// gives its connection back; checks are rate-limited per address and per list, create counts its
// order limit before any expensive query, and a bulk load of leads is analysed at once.
import { Client } from "pg";
import { STANDING_REFUSAL_HEADER } from "@/lib/http/standing-refusals.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";
import { startTestStore } from "../support/store";
import { fileHead, multipart, MULTIPART } from "../support/uploads";

const store = await startTestStore({
  name: "leadmarket_query_budgets",
  apiKey: "np-budgets",
  ipnSecret: "ipn-budgets",
  env: { ORDER_CREATE_LIMIT: "2" },
});

const { POST: uploadRoute } = await import("@/app/api/suppression-lists/route");
const { GET: availabilityRoute } = await import("@/app/api/suppression-lists/[id]/availability/route");
const { POST: create } = await import("@/app/api/payment/create/route");
const { GET: health } = await import("@/app/api/health/route");
const { pool } = await import("@/lib/db");
const { insertLeads } = await import("@/lib/leads/insert");
const { createCategoryWithLeads, leadBatches } = await import("@/prisma/demo-data");

let category: string;
// Exactly a starter package's worth of USA leads: a list naming one of them makes starter unfillable.
let exact: string;
let leadEmail: string;

beforeAll(async () => {
  category = await createCategoryWithLeads(pool(), { title: "Budgets" }, 3000, 71);
  exact = await createCategoryWithLeads(pool(), { title: "Budgets Exact" }, 1000, 72);
  const { rows } = await pool().query<{ email: string }>(
    "SELECT email FROM leads WHERE category_id = $1 ORDER BY email LIMIT 1",
    [category],
  );
  leadEmail = rows[0].email;
});

afterAll(store.close);

async function upload(text: string, address: string): Promise<string> {
  const answer = await callJson<{ suppressionListId: string }>(uploadRoute, "/api/suppression-lists", {
    body: multipart(fileHead("file", "mine.csv"), text),
    headers: { "content-type": MULTIPART, ...fromAddress(address) },
  });
  expect(answer.status).toBe(201);
  return answer.body.suppressionListId;
}

function availability(id: string, address: string, categoryId = category) {
  return callJson<Record<string, unknown> & { message?: string }>(
    availabilityRoute,
    `/api/suppression-lists/${id}/availability?categoryId=${categoryId}&location=USA`,
    { params: { id }, headers: fromAddress(address) },
  );
}

function createOrder(body: Record<string, unknown>, address: string) {
  return callJson<{ paymentId?: string; message?: string }>(create, "/api/payment/create", {
    json: { categoryId: category, packageType: "starter", ...body },
    headers: fromAddress(address),
  });
}

/** Holds an exclusive lock on leads from a connection of its own, so every count of leads waits. */
async function lockLeads(): Promise<Client> {
  const client = new Client({ connectionString: store.database.url });
  await client.connect();
  await client.query("BEGIN");
  await client.query("LOCK TABLE leads IN ACCESS EXCLUSIVE MODE");
  return client;
}

async function unlock(client: Client): Promise<void> {
  await client.query("ROLLBACK");
  await client.end();
}

/** Backends of the test database waiting on a table's lock (not the limiter's advisory locks). */
async function waitingOnLocks(): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'relation'",
  );
  return rows[0].n;
}

/** Resolves with `promise`'s value, or with "stalled" after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "stalled"> {
  return Promise.race([
    promise,
    new Promise<"stalled">((resolve) => setTimeout(() => resolve("stalled"), ms)),
  ]);
}

describe("before payment, a list tells nothing about one address", () => {
  it("answers the same for a one-address list of one of our leads as for an unknown address", async () => {
    const ours = await availability(await upload(`${leadEmail}\n`, "10.71.0.1"), "10.71.0.1");
    const unknown = await availability(await upload("nobody@not-ours.example\n", "10.71.0.1"), "10.71.0.1");
    expect(ours.status).toBe(200);
    expect(ours.body).toEqual(unknown.body);
    expect(ours.body).toEqual({
      packages: {
        starter: { leadCount: 1000, available: true },
        standard: { leadCount: 10000, available: false },
        premium: { leadCount: 20000, available: false },
      },
    });
  });

  it("create's refusal says the package cannot be filled, never how many the list names", async () => {
    const { rows } = await pool().query<{ email: string }>(
      "SELECT email FROM leads WHERE category_id = $1 LIMIT 1",
      [exact],
    );
    const list = await upload(`${rows[0].email}\n`, "10.71.0.2");
    const refused = await createOrder({ categoryId: exact, suppressionListId: list }, "10.71.0.2");
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "Budgets Exact has 1,000 leads; what is left without the contacts on your list is fewer than the 1,000 the Starter package includes. Choose a smaller package or request custom leads.",
    );
    const available = await availability(list, "10.71.0.2", exact);
    expect(available.body).toEqual({
      packages: {
        starter: { leadCount: 1000, available: false },
        standard: { leadCount: 10000, available: false },
        premium: { leadCount: 20000, available: false },
      },
    });
  });
});

describe("expensive queries within the pool's budget", () => {
  it("at most 4 hold a connection: the others answer 503 with Retry-After, health answers, a timeout is a 503", async () => {
    // Twelve visitors, a list each: more at once than the pool has connections (10).
    const addresses = Array.from({ length: 12 }, (_, i) => `10.72.0.${i + 1}`);
    const lists = await Promise.all(addresses.map((address) => upload(`${leadEmail}\n`, address)));
    const lock = await lockLeads();
    try {
      const requests = addresses.map((address, i) => availability(lists[i], address));
      const settled = Promise.all(requests);
      for (let tries = 0; tries < 50 && (await waitingOnLocks()) < 4; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const quick = await within(call(health, "/api/health"), 3000);
      expect(quick === "stalled" ? "stalled" : quick.status).toBe(200);
      expect(await waitingOnLocks()).toBe(4);
      // The statement timeout (5 s) stops the four waiting on the lock; the lock is still held.
      const answers = await within(settled, 12_000);
      expect(answers).not.toBe("stalled");
      const statuses = (answers as Awaited<typeof settled>).map((answer) => answer.status);
      expect(statuses).toEqual(Array(12).fill(503));
      for (const answer of answers as Awaited<typeof settled>) {
        expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      const messages = (answers as Awaited<typeof settled>).map((answer) => answer.body.message);
      expect(messages.filter((message) => message?.includes("took too long"))).toHaveLength(4);
      expect(messages.filter((message) => message?.includes("busy"))).toHaveLength(8);
    } finally {
      await unlock(lock);
    }
    // Every connection is back: the pool has none checked out, and the next check runs.
    expect(pool().totalCount - pool().idleCount).toBe(0);
    expect((await availability(lists[0], addresses[0])).status).toBe(200);
  }, 30_000);

  it("runs each under its statement timeout and on one core (no parallel workers)", async () => {
    const { timedQuery } = await import("@/lib/limits/expensive-queries");
    const settings = await timedQuery(
      (tx) => tx.$queryRaw<{ timeout: string; workers: string }[]>`
        SELECT current_setting('statement_timeout') AS timeout,
               current_setting('max_parallel_workers_per_gather') AS workers`,
      1234,
    );
    expect(settings).toEqual([{ timeout: "1234ms", workers: "0" }]);
  });

  it("one address runs one at a time: the next 15 wait their turn, one more answers 429 at once", async () => {
    const list = await upload(`${leadEmail}\n`, "10.72.1.1");
    const lock = await lockLeads();
    let lined: Promise<{ status: number }>[] = [];
    try {
      lined = Array.from({ length: 16 }, () => availability(list, "10.72.1.1"));
      for (let tries = 0; tries < 50 && (await waitingOnLocks()) < 1; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const seventeenth = await within(availability(list, "10.72.1.1"), 3000);
      expect(seventeenth === "stalled" ? "stalled" : seventeenth.status).toBe(429);
      if (seventeenth !== "stalled") {
        expect(Number(seventeenth.headers.get("retry-after"))).toBeGreaterThan(0);
        // Over once one finishes: not a refusal the custom server may give again itself.
        expect(seventeenth.headers.get(STANDING_REFUSAL_HEADER)).toBeNull();
      }
      // Only the first reached the database; another address's check still runs beside it.
      expect(await waitingOnLocks()).toBe(1);
      const other = availability(await upload(`${leadEmail}\n`, "10.72.1.2"), "10.72.1.2");
      lined.push(other);
      for (let tries = 0; tries < 50 && (await waitingOnLocks()) < 2; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await waitingOnLocks()).toBe(2);
    } finally {
      await unlock(lock);
    }
    const answers = await Promise.all(lined);
    expect(answers.map((answer) => answer.status)).toEqual(Array(17).fill(200));
  });

  it("create counts the order limit before it counts the list", async () => {
    const list = await upload(`${leadEmail}\n`, "10.73.0.1");
    // ORDER_CREATE_LIMIT is 2 here: two orders (the list names none of this category's leads).
    for (let i = 0; i < 2; i += 1) {
      const tried = await createOrder({ suppressionListId: list, categoryId: exact }, "10.73.0.1");
      expect(tried.status).toBe(200);
    }
    const lock = await lockLeads();
    try {
      const third = await within(createOrder({ suppressionListId: list }, "10.73.0.1"), 3000);
      expect(third === "stalled" ? "stalled" : third.status).toBe(429);
      // Create's own order limit spares a browser's open order: not a standing refusal.
      if (third !== "stalled") expect(third.headers.get(STANDING_REFUSAL_HEADER)).toBeNull();
    } finally {
      await unlock(lock);
    }
  });
});

describe("rate limits", () => {
  it("answer 429 with Retry-After past 20 checks of one list and past 30 checks from one address", async () => {
    const address = "10.74.0.1";
    const first = await upload("nobody@not-ours.example\n", address);
    const second = await upload("someone@not-ours.example\n", address);
    for (let i = 0; i < 20; i += 1) expect((await availability(first, address)).status).toBe(200);
    const listLimited = await availability(first, address);
    expect(listLimited.status).toBe(429);
    expect(listLimited.body.message).toBe(
      "This exclusion list was checked too often. Please try again in a few minutes.",
    );
    expect(Number(listLimited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Every check of the list, from this address, is refused until then: the custom server gives
    // the refusal again itself (lib/http/standing-refusals.mjs).
    expect(listLimited.headers.get(STANDING_REFUSAL_HEADER)).toBe("1");
    // The refused check counted for the address: 21 so far, 9 more are allowed.
    for (let i = 0; i < 9; i += 1) expect((await availability(second, address)).status).toBe(200);
    const addressLimited = await availability(second, address);
    expect(addressLimited.status).toBe(429);
    expect(addressLimited.body.message).toBe(
      "Too many checks of exclusion lists from your address. Please try again in a few minutes.",
    );
    expect(Number(addressLimited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(addressLimited.headers.get(STANDING_REFUSAL_HEADER)).toBe("1");
    // Another address is not limited by them.
    const other = await upload("nobody@not-ours.example\n", "10.74.0.2");
    expect((await availability(other, "10.74.0.2")).status).toBe(200);
  }, 30_000);
});

describe("bulk loads", () => {
  it("analyse leads at once, so plans never wait for autovacuum", async () => {
    const loaded = await createCategoryWithLeads(pool(), { title: "Budgets Loaded" }, 0);
    const before = new Date();
    await insertLeads(
      pool(),
      loaded,
      [...leadBatches(2000, { seed: 73, category: "Budgets Loaded", country: "USA" })].flat(),
    );
    const { rows } = await pool().query<{ analysed: Date | null }>(
      "SELECT last_analyze AS analysed FROM pg_stat_user_tables WHERE relname = 'leads'",
    );
    expect(rows[0].analysed?.getTime() ?? 0).toBeGreaterThanOrEqual(before.getTime() - 1000);
  });
});
