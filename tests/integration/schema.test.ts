// Proves prisma/schema.prisma and the SQL migrations agree: every model is written with every
// field set and read back through Prisma Client against a database built only from the SQL (the
// rollups the triggers keep are read back, and the models Prisma ignores go through SQL); and the
// indexes and constraints the raw SQL in lib/ relies on exist as it expects them.
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { replacementOf } from "@/lib/orders/summary";

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
});

describe("schema and migrations", () => {
  it("round-trips every model and relation", async () => {
    const prisma = db();
    const verifiedAt = new Date("2026-11-01T10:00:00.123Z");

    const admin = await prisma.admin.create({
      data: {
        email: `schema-${Date.now()}@example.com`,
        passwordHash: "hash",
        passwordChangedAt: verifiedAt,
      },
    });
    const adminRead = await prisma.admin.findUniqueOrThrow({
      where: { id: admin.id },
      omit: { passwordHash: false },
    });
    expect(adminRead.passwordHash).toBe("hash");
    expect(adminRead.passwordChangedAt).toEqual(verifiedAt);
    expect("passwordHash" in (await prisma.admin.findUniqueOrThrow({ where: { id: admin.id } }))).toBe(false);

    const settings = await prisma.settings.upsert({
      where: { id: 1 },
      update: {},
      create: {
        id: 1,
        notificationEmail: "ops@example.com",
        nowPaymentsApiKeyEnc: "v1.a.b.c",
      },
    });
    expect(settings).toMatchObject({ autoRefreshDashboard: true, enableNotifications: true });
    // Other files share the settings row: a key written there would turn their provider on.
    const rolledBack = new Error("rolled back");
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.settings.update({ where: { id: 1 }, data: { emailVerifierApiKeyEnc: "v1.d.e.f" } });
        const read = await tx.settings.findUniqueOrThrow({ where: { id: 1 } });
        expect(read.emailVerifierApiKeyEnc).toBe("v1.d.e.f");
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);

    const category = await prisma.category.create({
      data: { title: "Schema Test", description: "d", count: 1 },
    });
    expect(category.id).toMatch(/^[0-9a-f-]{36}$/);

    const leadData = {
      categoryId: category.id,
      firstName: "Ada",
      lastName: "Lovelace",
      jobTitle: "CTO",
      seniority: "C-Level",
      department: "Technology",
      company: "Engines Ltd",
      companyWebsite: "https://engines.co.uk",
      companySize: "11-50",
      companyRevenue: "$1M-$10M",
      industry: "Software",
      email: "ada@engines.co.uk",
      phone: "+44 20 0000 0000",
      city: "London",
      state: "England",
      country: "UK" as const,
      profileUrl: "https://www.linkedin.com/in/ada",
      verifiedAt,
      phoneE164: "+442000000000",
      phoneStatus: "unscreened" as const,
    };
    const lead = await prisma.lead.create({ data: leadData });
    expect(typeof lead.id).toBe("bigint");
    expect(await prisma.lead.findUniqueOrThrow({ where: { id: lead.id } })).toMatchObject(leadData);
    await expect(prisma.lead.create({ data: leadData })).rejects.toMatchObject({ code: "P2002" });

    const screened = {
      leadId: lead.id,
      status: "ctps" as const,
      screenedAt: new Date("2026-11-01T00:00:00.000Z"),
    };
    await prisma.leadPhoneScreen.create({ data: screened });
    expect(await prisma.leadPhoneScreen.findUniqueOrThrow({ where: { leadId: lead.id } })).toEqual(screened);
    await prisma.leadPhoneScreen.delete({ where: { leadId: lead.id } });
    const register = {
      register: "tps" as const,
      fileDate: new Date("2026-11-01T00:00:00.000Z"),
      fileName: "tps.zip",
      numbers: 2,
      rejected: 1,
      loadedAt: verifiedAt,
    };
    await prisma.phoneRegisterFile.create({ data: register });
    expect(await prisma.phoneRegisterFile.findUniqueOrThrow({ where: { register: "tps" } })).toEqual(
      register,
    );
    await prisma.phoneRegisterFile.delete({ where: { register: "tps" } });
    const screen = {
      categoryId: category.id,
      screenedAt: new Date("2026-11-01T00:00:00.000Z"),
      ukLeads: 10,
      callable: 7,
    };
    await prisma.categoryPhoneScreen.create({ data: screen });
    expect(
      await prisma.category.findUniqueOrThrow({ where: { id: category.id }, select: { phoneScreen: true } }),
    ).toEqual({ phoneScreen: screen });
    const seller = {
      sellerLegalName: "L",
      sellerAddress: "A",
      sellerIcoNumber: "ZA123456",
      sellerPrivacyEmail: "p@x.y",
      sellerVatNumber: "GB123456789",
    };
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.settings.update({ where: { id: 1 }, data: seller });
        expect(await tx.settings.findUniqueOrThrow({ where: { id: 1 } })).toMatchObject(seller);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);

    const suppression = await prisma.suppressionList.create({
      data: {
        owner: "a".repeat(64),
        entries: 2,
        emails: 1,
        domains: 1,
        hashes: 0,
        ignored: 3,
        expiresAt: verifiedAt,
        emailKeys: [Buffer.alloc(32, 7)],
        domainKeys: ["engines.co.uk"],
      },
    });
    const order = await prisma.order.create({
      data: {
        categoryId: category.id,
        leadTitle: category.title,
        packageType: "premium",
        leadCount: 20000,
        amount: new Prisma.Decimal("200.00"),
        invoiceId: `inv-${Date.now()}`,
        invoiceUrl: "https://pay.example/inv",
        providerPaymentId: `pay-${Date.now()}`,
        paidAmount: new Prisma.Decimal("200.12345678"),
        paidAt: verifiedAt,
        status: "finished",
        lastError: null,
        buyerEmail: "buyer@example.com",
        browserId: "b".repeat(22),
        clientIp: "127.0.0.1",
        payCurrency: "usdttrc20",
        actuallyPaid: new Prisma.Decimal("100.000000000001"),
        actuallyPaidFiat: new Prisma.Decimal("199.63"),
        downloadExpiresAt: verifiedAt,
        receiptSentAt: verifiedAt,
        checkedAt: verifiedAt,
        excludedBought: 600,
        excludedListed: 120,
        suppressionListId: suppression.id,
        leads: { create: [{ position: 0, leadId: lead.id }] },
        events: { create: [{ status: "finished", note: "Paid" }] },
      },
      include: { leads: true },
    });
    const orderRead = await prisma.order.findUniqueOrThrow({
      where: { id: order.id },
      include: { leads: true, events: true },
    });
    expect(orderRead.amount.toString()).toBe("200");
    expect(orderRead.paidAmount?.toFixed(8)).toBe("200.12345678");
    expect(orderRead.actuallyPaid?.toFixed(12)).toBe("100.000000000001");
    expect(orderRead.actuallyPaidFiat?.toFixed(2)).toBe("199.63");
    expect(orderRead).toMatchObject({
      buyerEmail: "buyer@example.com",
      browserId: "b".repeat(22),
      clientIp: "127.0.0.1",
      payCurrency: "usdttrc20",
      downloadExpiresAt: verifiedAt,
      receiptSentAt: verifiedAt,
      checkedAt: verifiedAt,
      excludedBought: 600,
      excludedListed: 120,
    });
    const list = await prisma.suppressionList.findUniqueOrThrow({
      where: { id: orderRead.suppressionListId! },
    });
    expect(list).toMatchObject({
      entries: 2,
      ignored: 3,
      expiresAt: verifiedAt,
      domainKeys: ["engines.co.uk"],
    });
    expect(Buffer.from(list.emailKeys[0])).toEqual(Buffer.alloc(32, 7));
    // A deleted list leaves its order (and its count) in place.
    await prisma.suppressionList.delete({ where: { id: list.id } });
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      suppressionListId: null,
      excludedListed: 120,
    });
    // The database gives every order its download key: 43 base64url characters.
    expect(orderRead.downloadKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(orderRead.events).toMatchObject([{ orderId: order.id, status: "finished", note: "Paid" }]);
    expect(orderRead.currency).toBe("usd");
    expect(orderRead.leads).toEqual([{ orderId: order.id, position: 0, leadId: lead.id }]);
    expect(
      await prisma.orderLead.findUniqueOrThrow({
        where: { orderId_position: { orderId: order.id, position: 0 } },
      }),
    ).toEqual({ orderId: order.id, position: 0, leadId: lead.id });
    // The sold counter is written by the triggers on order_leads only.
    const sale = { categoryId: category.id, leadId: lead.id };
    expect(await prisma.leadSale.findUniqueOrThrow({ where: { categoryId_leadId: sale } })).toEqual({
      ...sale,
      sold: 1,
    });
    // A sold lead leaves the unsold leads' walk (the same file's triggers).
    expect(await prisma.unsoldLead.count({ where: { leadId: lead.id } })).toBe(0);
    // A sold lead turned invalid is queued by the trigger (prisma/derived/50-heal-queue.sql); its
    // healed row is recorded against the order.
    await prisma.lead.update({ where: { id: lead.id }, data: { emailStatus: "invalid" } });
    expect(await prisma.invalidatedLead.findUniqueOrThrow({ where: { leadId: lead.id } })).toMatchObject({
      leadId: lead.id,
    });
    await prisma.lead.update({ where: { id: lead.id }, data: { emailStatus: lead.emailStatus } });
    await prisma.invalidatedLead.delete({ where: { leadId: lead.id } });
    const heal = {
      orderId: order.id,
      position: 0,
      oldLeadId: lead.id,
      newLeadId: null,
      healedAt: verifiedAt,
    };
    const healRead = await prisma.orderHeal.create({ data: heal });
    expect(await prisma.orderHeal.findUniqueOrThrow({ where: { id: healRead.id } })).toEqual({
      ...heal,
      id: healRead.id,
    });
    const optOut = { orderId: order.id, emailHash: "e".repeat(64), optedOutAt: verifiedAt };
    await prisma.orderOptOut.create({ data: optOut });
    expect(
      await prisma.orderOptOut.findUniqueOrThrow({
        where: { orderId_emailHash: { orderId: order.id, emailHash: optOut.emailHash } },
      }),
    ).toEqual(optOut);
    // A lead's notice, its mail and what became of it; the lead's status says it waits.
    const noticeMail = await prisma.mailOutbox.create({
      data: { kind: "privacy-notice", recipient: lead.email, mail: { to: lead.email } },
    });
    await prisma.lead.update({ where: { id: lead.id }, data: { noticeStatus: "queued" } });
    const notice = {
      leadId: lead.id,
      emailDomain: "engines.co.uk",
      mailId: noticeMail.id,
      queuedAt: verifiedAt,
      sentAt: verifiedAt,
      bouncedAt: null,
      optedOutAt: verifiedAt,
    };
    const noticeRead = await prisma.privacyNotice.create({ data: notice });
    expect(
      await prisma.privacyNotice.findUniqueOrThrow({ where: { id: noticeRead.id }, include: { lead: true } }),
    ).toMatchObject({ ...notice, lead: { noticeStatus: "queued" } });
    // The mail's removal leaves the notice.
    await prisma.mailOutbox.delete({ where: { id: noticeMail.id } });
    expect(await prisma.privacyNotice.findUniqueOrThrow({ where: { id: noticeRead.id } })).toMatchObject({
      mailId: null,
    });
    await prisma.lead.update({ where: { id: lead.id }, data: { noticeStatus: "not_required" } });
    const throttled = await prisma.throttleEvent.create({ data: { bucket: "f".repeat(64) } });
    expect(await prisma.throttleEvent.findUniqueOrThrow({ where: { id: throttled.id } })).toMatchObject({
      bucket: "f".repeat(64),
    });
    await expect(prisma.category.delete({ where: { id: category.id } })).rejects.toThrow();

    const request = await prisma.customRequest.create({
      data: {
        name: "Grace",
        email: "grace@example.com",
        industry: "saas",
        role: "cto",
        platform: "linkedin, slack",
        clientIp: "127.0.0.1",
        attachments: {
          create: [
            { fileName: "brief.pdf", contentType: "application/pdf", size: 4, data: Buffer.from("%PDF") },
          ],
        },
      },
      include: { attachments: true },
    });
    expect(request.status).toBe("pending");
    expect(request.message).toBe("");
    const updated = await prisma.customRequest.update({
      where: { id: request.id },
      data: { status: "in_progress" },
    });
    expect(updated.status).toBe("in_progress");
    const attachment = await prisma.attachment.findUniqueOrThrow({
      where: { id: request.attachments[0].id },
    });
    expect(Buffer.from(attachment.data).toString()).toBe("%PDF");

    const hour = new Date("2026-11-01T10:00:00.000Z");
    await prisma.customRequestCount.create({ data: { clientIp: "192.0.2.1", hour, count: 2 } });
    expect(
      await prisma.customRequestCount.findUniqueOrThrow({
        where: { clientIp_hour: { clientIp: "192.0.2.1", hour } },
      }),
    ).toEqual({ clientIp: "192.0.2.1", hour, count: 2 });
    await prisma.customRequestCount.delete({ where: { clientIp_hour: { clientIp: "192.0.2.1", hour } } });

    // An invoice, its seller's counter and VAT rate: rolled back, as other files invoice on this
    // database and their numbers start at 1.
    const issued = {
      orderId: order.id,
      sellerId: 1,
      number: 7,
      companyName: "Engines GmbH",
      address: "Hauptstrasse 1",
      country: "DE",
      vatId: "DE136695976",
      sellerLegalName: "L",
      sellerAddress: "A",
      sellerVatNumber: "GB123456789",
      issuedAt: verifiedAt,
      correctedAt: verifiedAt,
    };
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.settings.update({ where: { id: 1 }, data: { vatRatePercent: new Prisma.Decimal("17.5") } });
        await tx.invoiceCounter.upsert({
          where: { sellerId: 1 },
          create: { sellerId: 1, lastNumber: 7 },
          update: { lastNumber: 7 },
        });
        await tx.invoice.create({ data: { ...issued, vatRatePercent: new Prisma.Decimal("20.25") } });
        const read = await tx.invoice.findUniqueOrThrow({
          where: { orderId: order.id },
          include: { counter: { include: { seller: { select: { vatRatePercent: true } } } } },
        });
        expect(read).toMatchObject({ ...issued, counter: { sellerId: 1, lastNumber: 7 } });
        expect(read.vatRatePercent.toFixed(2)).toBe("20.25");
        expect(read.counter.seller.vatRatePercent.toFixed(2)).toBe("17.50");
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);

    const claim = await prisma.replacementClaim.create({
      data: {
        orderId: order.id,
        reported: 3,
        counted: 2,
        replaced: 1,
        shortfall: 0,
        invalidConfirmed: 1,
        verifiedDeliverable: 1,
        reports: {
          create: [
            { orderId: order.id, leadId: lead.id, verdict: "unconfirmed", replaced: false, held: true },
          ],
        },
      },
      include: { reports: true },
    });
    expect(
      await prisma.replacementClaim.findUniqueOrThrow({
        where: { id: claim.id },
        include: { reports: true },
      }),
    ).toMatchObject({
      invalidConfirmed: 1,
      verifiedDeliverable: 1,
      reports: [{ orderId: order.id, leadId: lead.id, verdict: "unconfirmed", replaced: false, held: true }],
    });
    // Its held rows are the reports flagged held, counted when read (no counter beside them).
    expect(await replacementOf(order.id)).toMatchObject({ replaced: 1, heldForReview: 1 });
    await prisma.replacementClaim.delete({ where: { id: claim.id } });
    expect(await prisma.replacementReport.count({ where: { claimId: claim.id } })).toBe(0);

    const month = new Date("2026-11-01T00:00:00.000Z");
    await prisma.verifierMonth.create({
      data: { month, sent: 3, invalidFound: 1, lastError: "no credits", lastErrorAt: verifiedAt },
    });
    expect(await prisma.verifierMonth.findUniqueOrThrow({ where: { month } })).toEqual({
      month,
      sent: 3,
      invalidFound: 1,
      lastError: "no credits",
      lastErrorAt: verifiedAt,
    });
    await prisma.verifierMonth.delete({ where: { month } });

    // The per-day rollup behind the due re-checks, kept by triggers: the lead above is in it.
    expect(await prisma.categoryCheckDay.findMany({ where: { categoryId: category.id } })).toEqual([
      { categoryId: category.id, checkedOn: new Date("2026-11-01T00:00:00.000Z"), leads: 1 },
    ]);

    // So are the per-day and per-segment counts behind the catalogue pages.
    expect(await prisma.categoryLeadDay.findMany({ where: { categoryId: category.id } })).toEqual([
      {
        categoryId: category.id,
        country: "UK",
        verifiedOn: new Date("2026-11-01T00:00:00.000Z"),
        emailStatus: "unknown",
        leads: 1,
      },
    ]);
    expect(await prisma.categorySegment.findMany({ where: { categoryId: category.id } })).toMatchObject([
      { categoryId: category.id, country: "UK", leads: 1 },
    ]);
    // The source mix, kept by the same triggers.
    expect(await prisma.categorySource.findMany({ where: { categoryId: category.id } })).toMatchObject([
      { categoryId: category.id, leads: 1 },
    ]);

    const recheck = {
      categoryId: category.id,
      requestedAt: verifiedAt,
      total: 5,
      checked: 2,
      cursorAt: verifiedAt,
      cursorId: 7n,
      finishedAt: verifiedAt,
    };
    await prisma.recheckRequest.create({ data: recheck });
    expect(await prisma.recheckRequest.findUniqueOrThrow({ where: { categoryId: category.id } })).toEqual(
      recheck,
    );
    await prisma.recheckRequest.delete({ where: { categoryId: category.id } });

    const attempt = await prisma.loginAttempt.create({
      data: { email: "a@b.c", ip: "::1", success: false, device: "d1", throttled: true },
    });
    expect(await prisma.loginAttempt.findUniqueOrThrow({ where: { id: attempt.id } })).toMatchObject({
      email: "a@b.c",
      success: false,
      device: "d1",
      throttled: true,
    });

    const queued = await prisma.mailOutbox.create({
      data: {
        kind: "schema-test",
        recipient: "a@b.c",
        mail: { to: "a@b.c", subject: "s", text: "t" },
        attempts: 2,
        nextAttemptAt: verifiedAt,
        lastError: "boom",
        sentAt: verifiedAt,
        status: "sent",
      },
    });
    expect(await prisma.mailOutbox.findUniqueOrThrow({ where: { id: queued.id } })).toMatchObject({
      kind: "schema-test",
      mail: { to: "a@b.c", subject: "s", text: "t" },
      attempts: 2,
      nextAttemptAt: verifiedAt,
      sentAt: verifiedAt,
      status: "sent",
    });
    await prisma.mailOutbox.delete({ where: { id: queued.id } });

    await prisma.customRequest.delete({ where: { id: request.id } });
    expect(await prisma.attachment.count({ where: { requestId: request.id } })).toBe(0);
    await prisma.order.delete({ where: { id: order.id } });
    expect(await prisma.orderEvent.count({ where: { orderId: order.id } })).toBe(0);
    expect(await prisma.orderHeal.count({ where: { orderId: order.id } })).toBe(0);
    expect(await prisma.orderOptOut.count({ where: { orderId: order.id } })).toBe(0);
    expect(await prisma.leadSale.count({ where: { leadId: lead.id } })).toBe(0);
    const { country, verifiedAt: walkedAt } = await prisma.lead.findUniqueOrThrow({ where: { id: lead.id } });
    expect(await prisma.unsoldLead.findUniqueOrThrow({ where: { leadId: lead.id } })).toEqual({
      leadId: lead.id,
      categoryId: category.id,
      country,
      verifiedAt: walkedAt,
    });
    await prisma.category.delete({ where: { id: category.id } });
    expect(await prisma.lead.count({ where: { categoryId: category.id } })).toBe(0);
    expect(await prisma.unsoldLead.count({ where: { leadId: lead.id } })).toBe(0);
  });

  it("round-trips the models outside the order's story", async () => {
    const prisma = db();
    const at = new Date("2026-11-02T10:00:00.123Z");

    // The one catalogue version row, which triggers move: written in a transaction rolled back, as
    // every instance's page cache reads it.
    const { version } = await prisma.catalogueVersion.findUniqueOrThrow({ where: { id: 1 } });
    const rolledBack = new Error("rolled back");
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.catalogueVersion.update({ where: { id: 1 }, data: { version: version + 1n } });
        expect(await tx.catalogueVersion.findUniqueOrThrow({ where: { id: 1 } })).toEqual({
          id: 1,
          version: version + 1n,
        });
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);

    const chunk = { uploadId: randomUUID(), seq: 3, data: Buffer.from("part"), createdAt: at };
    await prisma.uploadChunk.create({ data: chunk });
    const chunkRead = await prisma.uploadChunk.findUniqueOrThrow({
      where: { uploadId_seq: { uploadId: chunk.uploadId, seq: 3 } },
    });
    expect({ ...chunkRead, data: Buffer.from(chunkRead.data) }).toEqual(chunk);
    await prisma.uploadChunk.delete({ where: { uploadId_seq: { uploadId: chunk.uploadId, seq: 3 } } });

    const privacy = await prisma.privacyRequest.create({
      data: {
        kind: "erasure",
        email: "grace@example.com",
        emailHash: "c".repeat(64),
        emailMasked: "g***@example.com",
      },
    });
    expect(privacy).toMatchObject({ state: "pending", confirmedAt: null });
    await prisma.privacyRequest.update({
      where: { id: privacy.id },
      data: { state: "completed", email: null, confirmedAt: at },
    });
    expect(await prisma.privacyRequest.findUniqueOrThrow({ where: { id: privacy.id } })).toEqual({
      ...privacy,
      state: "completed",
      email: null,
      confirmedAt: at,
    });
    await prisma.privacyRequest.delete({ where: { id: privacy.id } });

    const erased = { emailHash: "d".repeat(64), createdAt: at };
    await prisma.erasedEmail.create({ data: erased });
    expect(await prisma.erasedEmail.findUniqueOrThrow({ where: { emailHash: erased.emailHash } })).toEqual(
      erased,
    );
    await prisma.erasedEmail.delete({ where: { emailHash: erased.emailHash } });

    const pace = { name: "schema-test", nextAt: at };
    await prisma.pace.create({ data: pace });
    expect(await prisma.pace.findUniqueOrThrow({ where: { name: pace.name } })).toEqual(pace);
    await prisma.pace.delete({ where: { name: pace.name } });

    // The registers' numbers have no key, so Prisma leaves them out (@@ignore): through SQL.
    for (const table of ["tps_numbers", "ctps_numbers"]) {
      const { rows } = await pool().query<{ e164: string }>(
        `INSERT INTO ${table} (e164) VALUES ('+449990000001') RETURNING e164`,
      );
      expect(rows).toEqual([{ e164: "+449990000001" }]);
      await pool().query(`DELETE FROM ${table} WHERE e164 = '+449990000001'`);
    }
  });

  it("round-trips every model of the schema above", async () => {
    const schema = await readFile("prisma/schema.prisma", "utf8");
    const source = await readFile("tests/integration/schema.test.ts", "utf8");
    const models = [...schema.matchAll(/^model (\w+) \{([^}]*)\}/gm)].map(([, name, body]) => ({
      name,
      table: /@@map\("(\w+)"\)/.exec(body)![1],
      ignored: body.includes("@@ignore"),
    }));
    const untested = models.filter(({ name, table, ignored }) =>
      ignored
        ? !source.includes(`"${table}"`)
        : !source.includes(`prisma.${name.charAt(0).toLowerCase()}${name.slice(1)}.`) &&
          !source.includes(`tx.${name.charAt(0).toLowerCase()}${name.slice(1)}.`),
    );
    expect(untested.map(({ name }) => name)).toEqual([]);
  });

  it("has the keys, indexes and foreign keys the raw SQL relies on", async () => {
    // Each index by its definition, named by table and column list so a rename does not matter.
    const { rows: indexes } = await pool().query<{ definition: string }>(
      `SELECT tablename || CASE WHEN indexdef LIKE 'CREATE UNIQUE%' THEN ' unique ' ELSE ' ' END
              || substring(indexdef FROM 'USING btree \\((.*)\\)$') AS definition
       FROM pg_indexes WHERE schemaname = 'public'`,
    );
    const definitions = indexes.map((row) => row.definition);
    expect(definitions).toEqual(
      expect.arrayContaining([
        // Conflict targets: the lead import's ON CONFLICT (lib/leads/insert.ts) and creating the
        // admin once (skipDuplicates in lib/auth/password.ts).
        "leads unique category_id, email",
        "admins unique email",
        // A delivered order's leads in their kept order (lib/leads/delivery.ts, lib/orders/settle.ts).
        'order_leads unique order_id, "position"',
        // Allocation and previews walk a category's leads most recently verified first.
        "leads category_id, verified_at DESC, id",
        // Due re-checks counted, and requested ones swept, per category (lib/leads/recheck-queue.ts).
        "leads category_id, GREATEST(verified_at, email_checked_at), id) INCLUDE (verified_at, email_checked_at) WHERE lead_sellable(quarantined_at, email_status, notice_status",
        // Leads flagged for the admin's review, counted per category (lib/categories/quarantine.ts).
        "leads category_id) WHERE (flagged_at IS NOT NULL",
        // Claim rows held for the admin's review, counted per category (lib/categories/quarantine.ts).
        "replacement_reports order_id) WHERE (held = true",
        // Imported leads queued for the provider, counted among the due re-checks.
        "leads category_id) WHERE ((email_status_reason = 'queued'::text) AND (email_checked_at IS NULL)",
        // Sold counters by category: hashed for the walk over the unsold leads, read whole once
        // they run out.
        "lead_sales unique category_id, lead_id",
        // The unsold leads are walked on the index alone, skipping the sold ones before reading a row.
        "leads category_id, country, verified_at DESC, id",
        // Which bought leads no longer sell, for the earlier-purchase count (lib/leads/allocation.ts).
        "leads category_id, id) WHERE (NOT lead_sellable(quarantined_at, email_status, notice_status)",
        // Order lookups: by download key, by the provider's invoice and payment ids.
        "orders unique download_key",
        "orders unique invoice_id",
        "orders unique provider_payment_id",
        // Sliding-window limits count recent rows per key (lib/limits/throttle.ts, lib/auth/login.ts,
        // lib/custom-requests/rate-limit.ts).
        "throttle_events bucket, created_at",
        "login_attempts email, created_at",
        "login_attempts ip, created_at",
        // The custom requests' hourly counter: its upsert's conflict target, and the prune by hour
        // (lib/custom-requests/rate-limit.ts).
        "custom_request_counts unique client_ip, hour",
        "custom_request_counts hour",
        // The outbox worker claims due rows by status and time (lib/mail/outbox.ts).
        "mail_outbox status, next_attempt_at",
        // Exclusion lists: the anti-joins' probes, the upkeep's expiry walk, and the leads' keys the
        // counts probe per entry (lib/suppression).
        "suppression_lists expires_at",
        "leads category_id, email_hash",
        "leads category_id, email_domain",
        // The registers' numbers, probed by the screening's join (lib/leads/screening.ts), and the
        // leads whose phones are still to normalise.
        "tps_numbers e164",
        "ctps_numbers e164",
        "leads id) WHERE (phone_e164 IS NULL",
        // An erasure finds the orders that delivered the person: in the file, reported in a claim,
        // or healed out of it (lib/privacy/requests.ts).
        "order_leads lead_id",
        "replacement_reports lead_id",
        "order_heals old_lead_id",
        // Leads waiting for their notice, taken in id order and counted (lib/privacy/notices.ts);
        // the notices of the last hour per domain (the pace), and an erasure's notices.
        "leads notice_status, email_domain, id) WHERE (notice_status = ANY (ARRAY['due'::\"NoticeStatus\", 'queued'::\"NoticeStatus\"])",
        "privacy_notices email_domain, queued_at",
        "privacy_notices lead_id",
        "privacy_notices unique mail_id",
      ]),
    );

    const { rows: foreignKeys } = await pool().query<{ definition: string }>(
      `SELECT conrelid::regclass::text || ' ' || pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND contype = 'f'`,
    );
    expect(foreignKeys.map((row) => row.definition).sort()).toEqual([
      // Removing a custom request removes its files.
      "attachments FOREIGN KEY (request_id) REFERENCES custom_requests(id) ON UPDATE CASCADE ON DELETE CASCADE",
      // The per-day lead counts behind a category's figures (and its due re-checks) go with it.
      "category_check_days FOREIGN KEY (category_id) REFERENCES categories(id) ON UPDATE CASCADE ON DELETE CASCADE",
      "category_lead_days FOREIGN KEY (category_id) REFERENCES categories(id) ON UPDATE CASCADE ON DELETE CASCADE",
      // So does its last phone screening's figure.
      "category_phone_screens FOREIGN KEY (category_id) REFERENCES categories(id) ON UPDATE CASCADE ON DELETE CASCADE",
      // So do its segment counts.
      "category_segments FOREIGN KEY (category_id) REFERENCES categories(id) ON UPDATE CASCADE ON DELETE CASCADE",
      // So does its source mix.
      "category_sources FOREIGN KEY (category_id) REFERENCES categories(id) ON UPDATE CASCADE ON DELETE CASCADE",
      // A lead waiting to be healed leaves the queue with it (prisma/derived/50-heal-queue.sql).
      "invalidated_leads FOREIGN KEY (lead_id) REFERENCES leads(id) ON UPDATE CASCADE ON DELETE CASCADE",
      // Invoices are kept: no order with one, nor the seller that numbered it, can be removed.
      "invoice_counters FOREIGN KEY (seller_id) REFERENCES settings(id) ON UPDATE CASCADE ON DELETE RESTRICT",
      "invoices FOREIGN KEY (order_id) REFERENCES orders(id) ON UPDATE CASCADE ON DELETE RESTRICT",
      "invoices FOREIGN KEY (seller_id) REFERENCES invoice_counters(seller_id) ON UPDATE CASCADE ON DELETE RESTRICT",
      // Removing a category removes its leads...
      "leads FOREIGN KEY (category_id) REFERENCES categories(id) ON UPDATE CASCADE ON DELETE CASCADE",
      "order_events FOREIGN KEY (order_id) REFERENCES orders(id) ON UPDATE CASCADE ON DELETE CASCADE",
      // An order's healed rows go with it.
      "order_heals FOREIGN KEY (order_id) REFERENCES orders(id) ON UPDATE CASCADE ON DELETE CASCADE",
      // ...but never a lead an order delivered, nor a category that has orders.
      "order_leads FOREIGN KEY (lead_id) REFERENCES leads(id) ON UPDATE CASCADE ON DELETE RESTRICT",
      "order_leads FOREIGN KEY (order_id) REFERENCES orders(id) ON UPDATE CASCADE ON DELETE CASCADE",
      // An order's opt-outs go with it.
      "order_opt_outs FOREIGN KEY (order_id) REFERENCES orders(id) ON UPDATE CASCADE ON DELETE CASCADE",
      "orders FOREIGN KEY (category_id) REFERENCES categories(id) ON UPDATE CASCADE ON DELETE RESTRICT",
      // An expired exclusion list leaves its orders; its entries go with it.
      "orders FOREIGN KEY (suppression_list_id) REFERENCES suppression_lists(id) ON UPDATE CASCADE ON DELETE SET NULL",
      // A notice outlives its lead (erased) and its mail.
      "privacy_notices FOREIGN KEY (lead_id) REFERENCES leads(id) ON UPDATE CASCADE ON DELETE SET NULL",
      "privacy_notices FOREIGN KEY (mail_id) REFERENCES mail_outbox(id) ON UPDATE CASCADE ON DELETE SET NULL",
      // A category's requested re-check goes with it.
      "recheck_requests FOREIGN KEY (category_id) REFERENCES categories(id) ON UPDATE CASCADE ON DELETE CASCADE",
      // An order's replacement claim goes with it.
      "replacement_claims FOREIGN KEY (order_id) REFERENCES orders(id) ON UPDATE CASCADE ON DELETE CASCADE",
      "replacement_reports FOREIGN KEY (claim_id) REFERENCES replacement_claims(id) ON UPDATE CASCADE ON DELETE CASCADE",
      "replacement_reports FOREIGN KEY (lead_id) REFERENCES leads(id) ON UPDATE CASCADE ON DELETE CASCADE",
    ]);
  });
});
