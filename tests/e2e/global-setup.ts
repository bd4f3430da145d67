// Starts what the browser tests run against: a fresh database with the demo data and an admin,
// stand-ins for outside services, and the production build of the app. Values the tests need
// are passed through process.env, which the workers inherit.
import bcrypt from "bcryptjs";
import { Pool } from "pg";
import { seedDemoData } from "../../prisma/demo-data";
import { startAppServer } from "../support/app-server";
import { createTestDatabase } from "../support/database";
import { startNowPaymentsStandin } from "../support/nowpayments-standin";
import { startSmtpCatcher } from "../support/smtp";
import { startStandin } from "../support/standin";

export const E2E_ADMIN = { email: "admin@example.com", password: "e2e-admin-password" };
const APP_SECRET = "e2e-secret-0123456789-0123456789-abcdef";

export default async function globalSetup(): Promise<() => Promise<void>> {
  const database = await createTestDatabase("leadmarket_e2e");
  const pool = new Pool({ connectionString: database.url });
  await seedDemoData(pool);
  await pool.query("INSERT INTO admins (email, password_hash) VALUES ($1, $2)", [
    E2E_ADMIN.email,
    await bcrypt.hash(E2E_ADMIN.password, 4),
  ]);
  // The shared store sells UK rows from their import, so no spec's counts wait on notices going
  // out meanwhile; privacy-notices.spec.ts runs a store of its own with them on.
  await pool.query("INSERT INTO settings (id, privacy_notices) VALUES (1, false)");
  await pool.end();

  const smtp = await startSmtpCatcher();
  // The workers cannot reach the catcher's memory: they read the mailbox over HTTP.
  const mailbox = await startStandin((_request, response) => {
    const mails = smtp.messages.map((mail) => ({
      to: [mail.to].flat().flatMap((address) => address?.value.map((entry) => entry.address) ?? []),
      subject: mail.subject ?? "",
      text: mail.text ?? "",
      attachments: mail.attachments.map((attachment) => attachment.filename),
    }));
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(mails));
  });
  // The app pays through a NOWPayments stand-in (test mode off); purchase-test-mode.spec.ts starts
  // its own second server with PAYMENTS_TEST_MODE=1 for the built-in test payment page.
  const nowpayments = await startNowPaymentsStandin({ acceptAnyKey: true });
  const server = await startAppServer({
    port: Number(process.env.E2E_PORT),
    env: {
      DATABASE_URL: database.url,
      APP_SECRET,
      SMTP_URL: smtp.url,
      PAYMENTS_TEST_MODE: "0",
      NOWPAYMENTS_API_URL: nowpayments.url,
      NOWPAYMENTS_API_KEY: nowpayments.apiKey,
      NOWPAYMENTS_IPN_SECRET: nowpayments.ipnSecret,
      // Every browser connects from 127.0.0.1: the tests act as one proxy and name distinct
      // clients in X-Forwarded-For, so their rate limits do not add up.
      TRUST_PROXY_HOPS: "1",
      // Every browser test buys from 127.0.0.1; the limit itself is tested in integration.
      ORDER_CREATE_LIMIT: "100",
      // The demo's domains answer nothing real: no domain checks (as the embedded start does).
      DNS_SERVERS: "off",
    },
  });

  Object.assign(process.env, {
    E2E_BASE_URL: server.url,
    E2E_DATABASE_URL: database.url,
    E2E_APP_SECRET: APP_SECRET,
    E2E_MAILBOX_URL: mailbox.url,
    E2E_SMTP_URL: smtp.url,
    E2E_NOWPAYMENTS_URL: nowpayments.url,
  });

  return async () => {
    await server.stop();
    await mailbox.close();
    await nowpayments.close();
    await smtp.close();
    await database.drop();
  };
}
