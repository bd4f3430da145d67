// Every lead field once: its SQL column, its name in code, the header a download gives it and the
// header spellings an import accepts (compared lower-cased with everything but letters and digits
// removed, so "First Name", "first_name" and "firstName" all read as "firstname"). The text fields
// come first, in the order COPY writes them; no imports, so the browser may read it too.
export const LEAD_FIELDS = [
  {
    column: "first_name",
    field: "firstName",
    header: "First Name",
    aliases: ["firstname", "fname", "givenname", "first"],
  },
  {
    column: "last_name",
    field: "lastName",
    header: "Last Name",
    aliases: ["lastname", "lname", "surname", "familyname", "last"],
  },
  {
    column: "job_title",
    field: "jobTitle",
    header: "Title",
    aliases: ["jobtitle", "title", "position", "role"],
  },
  {
    column: "seniority",
    field: "seniority",
    header: "Seniority",
    aliases: ["seniority", "senioritylevel", "level"],
  },
  {
    column: "department",
    field: "department",
    header: "Department",
    aliases: ["department", "dept", "function"],
  },
  {
    column: "company",
    field: "company",
    header: "Company",
    aliases: ["company", "companyname", "organization", "organisation", "employer", "account"],
  },
  {
    column: "company_website",
    field: "companyWebsite",
    header: "Company Website",
    aliases: ["companywebsite", "website", "companyurl", "domain", "companydomain", "url"],
  },
  {
    column: "company_size",
    field: "companySize",
    header: "Company Size",
    aliases: ["companysize", "size", "employees", "headcount", "employeecount", "numberofemployees"],
  },
  {
    column: "company_revenue",
    field: "companyRevenue",
    header: "Company Revenue",
    aliases: ["companyrevenue", "revenue", "annualrevenue"],
  },
  { column: "industry", field: "industry", header: "Industry", aliases: ["industry", "sector"] },
  {
    column: "email",
    field: "email",
    header: "Email",
    aliases: ["email", "emailaddress", "workemail", "businessemail", "mail"],
  },
  {
    // The verdict of the lead's last check (docs/product-rules.md, "Verification"), delivered in
    // every package's file; an import reads vendors' spellings of it (lib/leads/import-rows.ts).
    column: "email_status",
    field: "emailStatus",
    header: "Email Status",
    aliases: ["emailstatus", "status", "emailverificationstatus", "verificationstatus"],
  },
  {
    column: "phone",
    field: "phone",
    header: "Phone",
    aliases: ["phone", "phonenumber", "telephone", "tel", "mobile", "directphone"],
  },
  { column: "city", field: "city", header: "City", aliases: ["city", "town"] },
  {
    column: "state",
    field: "state",
    header: "State",
    aliases: ["state", "region", "province", "county", "statecode"],
  },
  {
    column: "profile_url",
    field: "profileUrl",
    header: "Profile URL",
    aliases: ["profileurl", "profile", "linkedin", "linkedinurl", "linkedinprofile", "linkedinprofileurl"],
  },
  { column: "country", field: "country", header: "Country", aliases: ["country", "countrycode", "nation"] },
  {
    column: "verified_at",
    field: "verifiedAt",
    header: "Verified At",
    aliases: ["verifiedat", "verified", "verifieddate", "verifiedon", "lastverified", "lastverifiedat"],
  },
] as const;

/**
 * Columns every package's download delivers beyond the lead fields (docs/product-rules.md, "UK
 * compliance"): what our own screening found of the phone, which no import reads, and where and
 * when the lead was collected, which an import reads as "Source" and "Collected At"
 * (lib/leads/import-rows.ts).
 */
export const DELIVERED_FIELDS = [
  { column: "phone_status", header: "Phone Status" },
  { column: "phone_screened_at", header: "Phone Screened At" },
  { column: "source", header: "Source" },
  { column: "collected_at", header: "Collected At" },
] as const;

export type LeadField = (typeof LEAD_FIELDS)[number];
export type LeadColumn = LeadField["column"] | (typeof DELIVERED_FIELDS)[number]["column"];

/** The text fields (every field but country, verified-at and the email status), in COPY's column order. */
export const TEXT_FIELDS = LEAD_FIELDS.filter(
  (field): field is Exclude<LeadField, { column: "country" | "verified_at" | "email_status" }> =>
    field.column !== "country" && field.column !== "verified_at" && field.column !== "email_status",
);
