// Property test over the demo generator (docs/product-rules.md, "Demo data"): whatever the seed,
// every row is one a buyer would believe. The tables below are written from public numbering plans,
// independently of prisma/demo-profiles.ts, so a wrong code there fails here.
import { describe, expect, it } from "vitest";
import type { LeadInput } from "@/lib/leads/insert";
import { DEMO_CATEGORIES, makeLeads } from "@/prisma/demo-data";

// NANP area codes in service for each city (North American Numbering Plan Administrator).
const US_AREA_CODES: Record<string, { state: string; codes: string[] }> = {
  "New York": { state: "NY", codes: ["212", "646", "332", "917", "718", "347", "929"] },
  "Los Angeles": { state: "CA", codes: ["213", "323", "310", "424", "818", "747"] },
  Chicago: { state: "IL", codes: ["312", "773", "872"] },
  Houston: { state: "TX", codes: ["713", "281", "832", "346"] },
  Phoenix: { state: "AZ", codes: ["602", "480", "623"] },
  Philadelphia: { state: "PA", codes: ["215", "267", "445"] },
  "San Antonio": { state: "TX", codes: ["210", "726"] },
  "San Diego": { state: "CA", codes: ["619", "858"] },
  Dallas: { state: "TX", codes: ["214", "469", "972", "945"] },
  Austin: { state: "TX", codes: ["512", "737"] },
  "San Francisco": { state: "CA", codes: ["415", "628"] },
  Seattle: { state: "WA", codes: ["206"] },
  Denver: { state: "CO", codes: ["303", "720", "983"] },
  Boston: { state: "MA", codes: ["617", "857"] },
  Atlanta: { state: "GA", codes: ["404", "470", "678", "770"] },
  Miami: { state: "FL", codes: ["305", "786", "645"] },
  Nashville: { state: "TN", codes: ["615", "629"] },
  Portland: { state: "OR", codes: ["503", "971"] },
  Charlotte: { state: "NC", codes: ["704", "980"] },
  Minneapolis: { state: "MN", codes: ["612"] },
  Columbus: { state: "OH", codes: ["614", "380"] },
  Detroit: { state: "MI", codes: ["313"] },
  Raleigh: { state: "NC", codes: ["919", "984"] },
  "Salt Lake City": { state: "UT", codes: ["801", "385"] },
};

// UK geographic numbers (Ofcom): the area code without its 0 and the shape of the local number.
const UK_NUMBERS: Record<string, { nation: string; pattern: RegExp }> = {
  London: { nation: "England", pattern: /^\+44 20 [378]\d{3} \d{4}$/ },
  Manchester: { nation: "England", pattern: /^\+44 161 [2-9]\d{2} \d{4}$/ },
  Birmingham: { nation: "England", pattern: /^\+44 121 [2-9]\d{2} \d{4}$/ },
  Leeds: { nation: "England", pattern: /^\+44 113 [2-9]\d{2} \d{4}$/ },
  Bristol: { nation: "England", pattern: /^\+44 117 [2-9]\d{2} \d{4}$/ },
  Liverpool: { nation: "England", pattern: /^\+44 151 [2-9]\d{2} \d{4}$/ },
  Sheffield: { nation: "England", pattern: /^\+44 114 [2-9]\d{2} \d{4}$/ },
  "Newcastle upon Tyne": { nation: "England", pattern: /^\+44 191 [2-9]\d{2} \d{4}$/ },
  Nottingham: { nation: "England", pattern: /^\+44 115 [2-9]\d{2} \d{4}$/ },
  Edinburgh: { nation: "Scotland", pattern: /^\+44 131 [2-9]\d{2} \d{4}$/ },
  Glasgow: { nation: "Scotland", pattern: /^\+44 141 [2-9]\d{2} \d{4}$/ },
  Cardiff: { nation: "Wales", pattern: /^\+44 29 20\d{2} \d{4}$/ },
  Belfast: { nation: "Northern Ireland", pattern: /^\+44 28 90\d{2} \d{4}$/ },
};

// What a title must mention to belong to its category.
const TITLE_FITS: Record<string, RegExp> = {
  Marketing: /Marketing|Brand|Growth|Demand|Agency/,
  "Software & SaaS": /Engineer|Technology|Product|Customer Success|Founder/,
  Healthcare: /Medical|Nursing|Practice|Hospital|Patient|Clinical|Healthcare/,
  Finance: /Financ|Investment|Portfolio|Treasury|Controller|Managing Partner/,
  "Real Estate": /Broker|Property|Leasing|Development|Acquisitions|Asset/,
  "E-commerce": /E-commerce|Digital|Online Store|Marketplace|Founder/,
  "Human Resources": /HR|People|Talent|Recruit/,
  Legal: /Partner|Counsel|Legal|Associate|Practice Manager/,
  Education: /Principal|Superintendent|Dean|Academic|Admissions|Department Head|Curriculum|Program|Founder/,
  Construction: /Owner|President|Project|Construction|Site|Estimating|Operations|Health & Safety/,
};

// A company's revenue must be possible for its size: no 10-person $500M firm, no 5000+ under $1M.
const SIZE_RANK = ["1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5000+"];
const REVENUE_RANK = ["<$1M", "$1M-$10M", "$10M-$50M", "$50M-$100M", "$100M-$500M", "$500M+"];

function problems(lead: LeadInput, category: string): string[] {
  const found: string[] = [];
  const domain = lead.email.split("@")[1];
  if (new URL(lead.companyWebsite).hostname !== `www.${domain}`)
    found.push("email domain is not the website's");
  if (!TITLE_FITS[category].test(lead.jobTitle)) found.push(`title "${lead.jobTitle}" is not ${category}`);
  if (!lead.seniority || !lead.department) found.push("no seniority or department");
  if (lead.seniority === "VP" && !lead.jobTitle.startsWith("VP ")) found.push("VP without a VP title");
  const size = SIZE_RANK.indexOf(lead.companySize);
  const revenue = REVENUE_RANK.indexOf(lead.companyRevenue);
  if (size < 0 || revenue < 0 || revenue > size + 1 || revenue < size - 2)
    found.push("size and revenue disagree");
  if (lead.country === "USA") {
    const place = US_AREA_CODES[lead.city];
    const phone = /^\+1 \((\d{3})\) ([2-9]\d{2})-\d{4}$/.exec(lead.phone);
    if (!place) found.push(`${lead.city} is not a US city`);
    else if (place.state !== lead.state) found.push(`${lead.city} is not in ${lead.state}`);
    if (!phone) found.push(`${lead.phone} is not a US number`);
    else {
      if (!place?.codes.includes(phone[1])) found.push(`${phone[1]} is not an area code of ${lead.city}`);
      if (phone[2].endsWith("11") || phone[2] === "555") found.push(`${phone[2]} is not a real exchange`);
    }
    if (!domain.endsWith(".com")) found.push("US company without a .com domain");
  } else {
    const place = UK_NUMBERS[lead.city];
    if (!place) found.push(`${lead.city} is not a UK city`);
    else {
      if (place.nation !== lead.state) found.push(`${lead.city} is not in ${lead.state}`);
      if (!place.pattern.test(lead.phone)) found.push(`${lead.phone} is not a ${lead.city} number`);
    }
    if (!domain.endsWith(".co.uk")) found.push("UK company without a .co.uk domain");
  }
  return found;
}

describe("demo data", () => {
  for (const category of DEMO_CATEGORIES) {
    it(`${category.title}: every row agrees with itself, its category and its country`, () => {
      for (const seed of [1, 7, 1234]) {
        for (const country of ["USA", "UK"] as const) {
          const leads = makeLeads(1_000, { seed, category: category.title, country });
          expect(leads).toHaveLength(1_000);
          expect(new Set(leads.map((lead) => lead.email)).size).toBe(leads.length);
          const companies = new Map<string, string>();
          for (const lead of leads) {
            expect.soft(problems(lead, category.title), JSON.stringify(lead)).toEqual([]);
            expect(lead.country).toBe(country);
            // One company, one website, city and size.
            const facts = `${lead.companyWebsite}|${lead.city}|${lead.companySize}|${lead.companyRevenue}`;
            expect(companies.get(lead.company) ?? facts).toBe(facts);
            companies.set(lead.company, facts);
          }
        }
      }
    });
  }

  it("fills every package in the USA for every category and in the UK for at least half", () => {
    expect(DEMO_CATEGORIES.every((category) => category.usa >= 20_000)).toBe(true);
    expect(DEMO_CATEGORIES.filter((category) => category.uk >= 20_000).length).toBeGreaterThanOrEqual(
      DEMO_CATEGORIES.length / 2,
    );
  });

  it("verifies most leads within the last 30 days", () => {
    const now = new Date("2026-11-20T12:00:00Z");
    const leads = makeLeads(5_000, { seed: 3, category: "Finance", now });
    const recent = leads.filter((lead) => now.getTime() - lead.verifiedAt.getTime() < 30 * 24 * 3600 * 1000);
    expect(recent.length / leads.length).toBeGreaterThan(0.8);
    expect(leads.every((lead) => lead.verifiedAt <= now)).toBe(true);
  });

  it("gives the demo's leads the statuses of checked data, none invalid, and others none", () => {
    const leads = makeLeads(2_000, { seed: 4, category: "Finance", statuses: true });
    const share = (status: string) =>
      leads.filter((lead) => lead.emailStatus === status).length / leads.length;
    expect(share("valid")).toBe(0.85);
    expect(share("accept_all")).toBe(0.1);
    expect(share("unknown")).toBe(0.05);
    expect(makeLeads(100, { seed: 4 }).every((lead) => lead.emailStatus === undefined)).toBe(true);
  });
});
