import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAILURE_TTL_S, MailDomainChecker, MAX_ANSWER_TTL_S } from "@/lib/verification/mail-domain";
import { startDnsServer, type LoopbackDnsServer } from "../support/dns-server";

// The mail-domain checks against a real DNS server on loopback.

let dns: LoopbackDnsServer;
let dead: LoopbackDnsServer;

beforeAll(async () => {
  dns = await startDnsServer({
    negativeTtl: 120,
    zone: {
      "mx.test": { mx: [{ exchange: "mail.mx.test", priority: 10 }], ttl: 600 },
      "a-only.test": { a: ["192.0.2.10"] },
      "aaaa-only.test": { aaaa: ["2001:db8::10"] },
      "null-mx.test": { mx: [{ exchange: "", priority: 0 }] },
      "no-records.test": {},
      "servfail.test": { rcode: "SERVFAIL" },
      "refused.test": { rcode: "REFUSED" },
      "silent.test": { silent: true },
      "short-ttl.test": { mx: [{ exchange: "mx.short-ttl.test", priority: 5 }], ttl: 30 },
      "long-ttl.test": { mx: [{ exchange: "mx.long-ttl.test", priority: 5 }], ttl: 86_400 },
      "xn--bcher-kva.test": { mx: [{ exchange: "mx.xn--bcher-kva.test", priority: 10 }] },
    },
  });
  dead = await startDnsServer({ neverAnswer: true });
});

afterAll(async () => {
  await dns.close();
  await dead.close();
});

function checker(
  servers: LoopbackDnsServer[],
  options: Partial<ConstructorParameters<typeof MailDomainChecker>[0]> = {},
) {
  return new MailDomainChecker({
    servers: servers.map(({ host, port }) => ({ host, port })),
    queryTimeoutMs: 300,
    ...options,
  });
}

const queriesFor = (server: LoopbackDnsServer, name: string) =>
  server.queries.filter((query) => query.startsWith(`${name} `));

describe("mail-domain checks", () => {
  it("gives each verdict: MX, implicit MX (A, AAAA), null MX, NXDOMAIN, no record", async () => {
    const answers = await checker([dns]).check([
      "mx.test",
      "a-only.test",
      "aaaa-only.test",
      "null-mx.test",
      "gone.test",
      "no-records.test",
      "xn--bcher-kva.test",
    ]);
    expect(Object.fromEntries(answers)).toEqual({
      "mx.test": "accepts_mail",
      "a-only.test": "accepts_mail",
      "aaaa-only.test": "accepts_mail",
      "null-mx.test": "null_mx",
      "gone.test": "no_mail_domain",
      "no-records.test": "no_mail_domain",
      "xn--bcher-kva.test": "accepts_mail",
    });
    // A domain with MX records is not asked for addresses.
    expect(queriesFor(dns, "mx.test")).toEqual(["mx.test MX"]);
    expect(queriesFor(dns, "no-records.test").sort()).toEqual([
      "no-records.test A",
      "no-records.test AAAA",
      "no-records.test MX",
    ]);
  });

  it("never turns SERVFAIL, REFUSED or a timeout into a verdict", async () => {
    const answers = await checker([dns]).check(["servfail.test", "refused.test", "silent.test"]);
    expect(Object.fromEntries(answers)).toEqual({
      "servfail.test": "unanswered",
      "refused.test": "unanswered",
      "silent.test": "unanswered",
    });
  });

  it("asks the next server when one fails, in the order given", async () => {
    const answers = await checker([dead, dns]).check(["mx.test", "gone.test"]);
    expect(answers.get("mx.test")).toBe("accepts_mail");
    expect(answers.get("gone.test")).toBe("no_mail_domain");
  });

  it("answers nothing without servers (domain checks off)", async () => {
    const answers = await checker([]).check(["mx.test"]);
    expect(answers.get("mx.test")).toBe("unanswered");
  });

  it("looks each domain up once, then keeps the answer for its TTL", async () => {
    let now = 1_000_000;
    const domains = checker([dns], { now: () => now });
    const before = queriesFor(dns, "short-ttl.test").length;
    await domains.check(["short-ttl.test", "short-ttl.test"]);
    await domains.check(["short-ttl.test"]);
    expect(queriesFor(dns, "short-ttl.test").length - before).toBe(1);
    now += 29_000;
    await domains.check(["short-ttl.test"]);
    expect(queriesFor(dns, "short-ttl.test").length - before).toBe(1);
    now += 2_000;
    expect((await domains.check(["short-ttl.test"])).get("short-ttl.test")).toBe("accepts_mail");
    expect(queriesFor(dns, "short-ttl.test").length - before).toBe(2);
  });

  it("shares one lookup between checks that ask at the same time", async () => {
    const domains = checker([dns]);
    const before = queriesFor(dns, "aaaa-only.test").length;
    const [first, second] = await Promise.all([
      domains.check(["aaaa-only.test"]),
      domains.check(["aaaa-only.test"]),
    ]);
    expect([first.get("aaaa-only.test"), second.get("aaaa-only.test")]).toEqual([
      "accepts_mail",
      "accepts_mail",
    ]);
    expect(queriesFor(dns, "aaaa-only.test").length - before).toBe(3);
  });

  it("keeps an answer at most an hour, whatever its TTL", async () => {
    let now = 5_000_000;
    const domains = checker([dns], { now: () => now });
    const count = () => queriesFor(dns, "long-ttl.test").length;
    const before = count();
    await domains.check(["long-ttl.test"]);
    now += (MAX_ANSWER_TTL_S - 1) * 1000;
    await domains.check(["long-ttl.test"]);
    expect(count() - before).toBe(1);
    now += 2000;
    await domains.check(["long-ttl.test"]);
    expect(count() - before).toBe(2);
  });

  it("keeps a negative answer for the SOA's TTL", async () => {
    let now = 0;
    const domains = checker([dns], { now: () => now });
    const count = () => queriesFor(dns, "vanished.test").length;
    await domains.check(["vanished.test"]);
    now += 119_000;
    await domains.check(["vanished.test"]);
    expect(count()).toBe(1);
    now += 2000;
    await domains.check(["vanished.test"]);
    expect(count()).toBe(2);
  });

  it("keeps a failure five minutes at most, then asks again", async () => {
    let now = 0;
    const domains = checker([dns], { now: () => now });
    const count = () => queriesFor(dns, "servfail.test").length;
    const before = count();
    await domains.check(["servfail.test"]);
    now += (FAILURE_TTL_S - 1) * 1000;
    expect((await domains.check(["servfail.test"])).get("servfail.test")).toBe("unanswered");
    expect(count() - before).toBe(1);
    now += 2000;
    await domains.check(["servfail.test"]);
    expect(count() - before).toBe(2);
  });

  it("holds at most `cacheSize` domains, dropping the oldest first", async () => {
    const domains = checker([dns], { cacheSize: 2 });
    const count = () => queriesFor(dns, "a-only.test").filter((query) => query.endsWith(" MX")).length;
    const before = count();
    await domains.check(["a-only.test"]);
    await domains.check(["aaaa-only.test", "mx.test"]);
    await domains.check(["a-only.test"]);
    expect(count() - before).toBe(2);
  });

  it("looks up at most `concurrency` domains at once", async () => {
    const slow = await startDnsServer({
      zone: Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [
          `slow${i}.test`,
          { mx: [{ exchange: "mx.test", priority: 1 }], delayMs: 60 },
        ]),
      ),
    });
    try {
      const answers = await checker([slow], { concurrency: 3 }).check(
        Array.from({ length: 12 }, (_, i) => `slow${i}.test`),
      );
      expect([...answers.values()].every((answer) => answer === "accepts_mail")).toBe(true);
      expect(slow.maxWaiting()).toBe(3);
    } finally {
      await slow.close();
    }
  });

  // The deadline is the product rule under test (an import never waits long on a dead resolver),
  // so the elapsed time is what is checked, with a generous margin.
  it("answers a batch of many domains within the deadline when the resolver never answers", async () => {
    const domains = Array.from({ length: 500 }, (_, i) => `company-${i}.test`);
    const started = Date.now();
    const answers = await checker([dead], { queryTimeoutMs: 1000, deadlineMs: 2000 }).check(domains);
    const elapsed = Date.now() - started;
    expect(answers.size).toBe(500);
    expect([...answers.values()].every((answer) => answer === "unanswered")).toBe(true);
    expect(elapsed).toBeLessThan(3000);
  });

  it("takes the caller's deadline, shared across batches", async () => {
    const deadlineAt = Date.now() + 500;
    const domains = checker([dead], { queryTimeoutMs: 1000 });
    await domains.check(["first.test"], deadlineAt);
    const started = Date.now();
    const answers = await domains.check(["second.test"], deadlineAt);
    expect(answers.get("second.test")).toBe("unanswered");
    expect(Date.now() - started).toBeLessThan(400);
  });
});
