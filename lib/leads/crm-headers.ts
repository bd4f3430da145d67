import "server-only";
import type { Column } from "@/lib/packages";

// The headers a CRM's own import maps by itself, per delivered column; a column neither CRM has a
// default field for keeps our header and is imported as a custom field. Company size and revenue
// stay custom in both: we deliver them as bands ("51-200", "10M-50M"), which Salesforce's number
// and currency fields (No. of Employees, Annual Revenue) refuse and which are none of the options of
// HubSpot's contact property Number of Employees. Source stays ours too: Salesforce's Lead Source is a
// picklist of its own values, and HubSpot's Original Source is set by HubSpot alone.

/** HubSpot's default contact property labels, which its import matches column headers against. */
const HUBSPOT: Record<string, string> = {
  first_name: "First Name",
  last_name: "Last Name",
  job_title: "Job Title",
  company: "Company Name",
  email: "Email",
  phone: "Phone Number",
  city: "City",
  state: "State/Region",
  country: "Country/Region",
  industry: "Industry",
  company_website: "Website URL",
};

/** The import file labels Salesforce's Data Import Wizard maps to Lead fields. */
const SALESFORCE: Record<string, string> = {
  first_name: "First Name",
  last_name: "Last Name",
  job_title: "Title",
  company: "Company",
  email: "Email",
  phone: "Phone",
  city: "City",
  state: "State/Province",
  country: "Country",
  industry: "Industry",
  company_website: "Website",
};

export type Crm = "hubspot" | "salesforce";

/** The header row of a CRM's file: the package's columns, in file order. */
export function crmHeaders(columns: Column[], crm: Crm): string[] {
  const names = crm === "hubspot" ? HUBSPOT : SALESFORCE;
  return columns.map((column) => names[column.key] ?? column.header);
}
