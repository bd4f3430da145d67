import "server-only";
import { z } from "zod";
import { productionRefusal } from "@/lib/production-rules";
import { parseDnsServers } from "@/lib/verification/dns-servers";

// Every environment variable of the product, validated once. Read lazily: `next build` imports
// modules without any runtime configuration, and must not fail for it.
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  // Optional here so that a build (which has no database) can read the rest; databaseUrl() requires it.
  DATABASE_URL: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_SECRET: z.string().min(32, "APP_SECRET must be at least 32 characters").optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z
    .string()
    .min(6)
    .refine((value) => value.trim().length > 0, "must not be only spaces")
    .optional(),
  PUBLIC_BASE_URL: z.url().optional(),
  NOWPAYMENTS_API_URL: z.url().default("https://api.nowpayments.io/v1"),
  NOWPAYMENTS_API_KEY: z.string().min(1).optional(),
  NOWPAYMENTS_IPN_SECRET: z.string().min(1).optional(),
  PAYMENTS_TEST_MODE: z.enum(["0", "1"]).default("0"),
  ALLOW_TEST_PAYMENTS_IN_PRODUCTION: z.enum(["0", "1"]).default("0"),
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(1).default("LeadMarket <no-reply@leadmarket.local>"),
  CUSTOM_REQUEST_LIMIT: z.coerce.number().int().min(0).default(20),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  ORDER_CREATE_LIMIT: z.coerce.number().int().min(0).default(10),
  // Provider lookups a minute, in all, of payment ids we have not stored (0 = none).
  PROVIDER_LOOKUP_LIMIT: z.coerce.number().int().min(0).default(60),
  // How long a download may wait for its reader to take the next piece before it is dropped.
  DOWNLOAD_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // Where `npm start` keeps the embedded database when DATABASE_URL is unset.
  LEADMARKET_DATA_DIR: z.string().min(1).default(".data"),
  // Resolvers for the mail-domain checks (`host:port,...`); `off`: no domain checks; unset: the system's.
  DNS_SERVERS: z
    .string()
    .transform((text, context) => {
      if (text.trim().toLowerCase() === "off") return [];
      try {
        return parseDnsServers(text);
      } catch (error) {
        context.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    })
    .optional(),
  EMAIL_VERIFIER_API_URL: z.url().optional(),
  EMAIL_VERIFIER_API_KEY: z.string().min(1).optional(),
  // Addresses the provider is sent a calendar month (UTC), in all; unset: no cap.
  EMAIL_VERIFIER_MONTHLY_LIMIT: z.coerce.number().int().min(0).optional(),
  // Addresses the background re-checks take a second (DNS and provider alike); 0: no limit.
  EMAIL_VERIFY_RATE: z.coerce.number().min(0).default(20),
  // Article 14 notices queued an hour, in all (0: no limit) and per recipient domain.
  PRIVACY_NOTICE_RATE: z.coerce.number().min(0).default(2000),
  PRIVACY_NOTICE_DOMAIN_RATE: z.coerce.number().int().min(1).default(50),
});

export type Env = Omit<z.infer<typeof schema>, "APP_SECRET" | "PUBLIC_BASE_URL" | "PAYMENTS_TEST_MODE"> & {
  APP_SECRET: string;
  PUBLIC_BASE_URL: string;
  paymentsTestMode: boolean;
};

// Only for `next dev` and tests without a configured secret; production refuses to start without one.
const DEVELOPMENT_SECRET = "leadmarket-development-secret-not-for-production";

let cached: Env | undefined;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const blankToUndefined = Object.fromEntries(
    Object.entries(source).map(([key, value]) => [key, value === "" ? undefined : value]),
  );
  const result = schema.safeParse(blankToUndefined);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment configuration:\n${problems.join("\n")}`);
  }
  const parsed = result.data;
  // A production server has a database; a build (production, no database, perhaps a DATABASE_URL
  // its platform sets) needs no secrets and reads only the rest.
  if (parsed.NODE_ENV === "production" && parsed.DATABASE_URL && !buildingForProduction()) {
    const refusal = productionRefusal(parsed);
    if (refusal) throw new Error(refusal);
  }
  return {
    ...parsed,
    APP_SECRET: parsed.APP_SECRET ?? DEVELOPMENT_SECRET,
    PUBLIC_BASE_URL: (parsed.PUBLIC_BASE_URL ?? `http://localhost:${parsed.PORT}`).replace(/(?<!\/)\/+$/, ""),
    paymentsTestMode: parsed.PAYMENTS_TEST_MODE === "1",
  };
}

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

export function databaseUrl(): string {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is required (npm start sets it in embedded mode)");
  return url;
}

/** The public origin for links in pages, mails, metadata and the sitemap, without a trailing slash. */
export function siteUrl(): string {
  return env().PUBLIC_BASE_URL;
}

/**
 * Fills the variables that are unset with `defaults` (the embedded start's database, secret and
 * test payments) and reads the configuration again; the server the start spawns inherits them.
 */
export function applyDefaults(defaults: Record<string, string>): Env {
  for (const [name, value] of Object.entries(defaults)) process.env[name] ||= value;
  cached = undefined;
  return env();
}

/**
 * Why the production server would refuse this configuration, or null; `npm start` asks before it
 * touches the database. Only an explicit NODE_ENV=development skips the production rules.
 */
export function productionProblem(): string | null {
  if (process.env.NODE_ENV === "development") return null;
  try {
    parseEnv({ ...process.env, NODE_ENV: "production" });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The environment of the production server `npm start` spawns: this one, defaults included. */
export function serverEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, NODE_ENV: "production" };
}

/** Whether this code runs inside the Next.js server (which sets NEXT_RUNTIME), not a script or test. */
export function insideNextServer(): boolean {
  return Boolean(process.env.NEXT_RUNTIME);
}

/** Whether `next build` is running this code (it has no database, and must not need one). */
export function buildingForProduction(): boolean {
  return process.env.NEXT_PHASE === "phase-production-build";
}
