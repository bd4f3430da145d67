// A store of its own for one integration test file: a fresh database, the NOWPayments stand-in
// (callbacks sent by the test, not automatically) and an SMTP catcher, wired through the
// environment the app reads. Set before the app's modules are imported.
import { createTestDatabase, type TestDatabase } from "./database";
import { startNowPaymentsStandin, type NowPaymentsStandin } from "./nowpayments-standin";
import { startSmtpCatcher, type SmtpCatcher } from "./smtp";

const CLOSE_TIMEOUT_MS = 10_000;

export type TestStore = {
  database: TestDatabase;
  standin: NowPaymentsStandin;
  smtp: SmtpCatcher;
  /** For afterAll: the app's database connections, the stand-in, the SMTP catcher, the database. */
  close: () => Promise<void>;
};

export async function startTestStore(options: {
  name: string;
  apiKey: string;
  ipnSecret: string;
  env?: Record<string, string>;
}): Promise<TestStore> {
  const database = await createTestDatabase(options.name);
  const standin = await startNowPaymentsStandin({ apiKey: options.apiKey, ipnSecret: options.ipnSecret });
  const smtp = await startSmtpCatcher();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    NOWPAYMENTS_API_URL: standin.url,
    NOWPAYMENTS_API_KEY: options.apiKey,
    NOWPAYMENTS_IPN_SECRET: options.ipnSecret,
    PAYMENTS_TEST_MODE: "0",
    SMTP_URL: smtp.url,
    ...options.env,
  });
  standin.setAutoIpn(false);
  const close = async () => {
    const { closeDatabase } = await import("@/lib/db");
    // Ending a pool waits for every checked-out connection; fail in seconds, saying why, rather
    // than at the hook's timeout.
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error("a database connection is still checked out: a download's body left unread?")),
        CLOSE_TIMEOUT_MS,
      );
    });
    await Promise.race([closeDatabase(), stuck]).finally(() => clearTimeout(timer));
    await standin.close();
    await smtp.close();
    await database.drop();
  };
  return { database, standin, smtp, close };
}
