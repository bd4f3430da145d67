// What a category's leads look like (titles, seniority, departments, industries, company names)
// and where they are (cities with their real phone area codes). Data for prisma/demo-data.ts.

/** Company size bands, smallest first; a band's index is used below. */
export const SIZES = ["1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5000+"] as const;

/** A job: title, seniority, department, relative frequency and the company sizes it exists in. */
export type Role = {
  title: string;
  seniority: string;
  department: string;
  weight: number;
  min: number;
  max: number;
};

function role(title: string, seniority: string, department: string, weight: number, min = 0, max = 6): Role {
  return { title, seniority, department, weight, min, max };
}

export type Profile = {
  industries: string[];
  /** The second word of a company name: "Harbor Medical Group". */
  kinds: string[];
  roles: Role[];
};

export const PROFILES: Record<string, Profile> = {
  Marketing: {
    industries: [
      "Marketing & Advertising",
      "Consumer Goods",
      "Retail",
      "Computer Software",
      "Professional Services",
    ],
    kinds: ["Marketing", "Media", "Brands", "Digital", "Creative", "Agency", "Communications", "Collective"],
    roles: [
      role("Agency Owner", "Owner", "Executive", 2, 0, 1),
      role("Chief Marketing Officer", "C-Level", "Marketing", 1, 1),
      role("VP of Marketing", "VP", "Marketing", 2, 2),
      role("Marketing Director", "Director", "Marketing", 3, 1),
      role("Director of Demand Generation", "Director", "Marketing", 1, 2),
      role("Head of Marketing", "Head", "Marketing", 2, 1),
      role("Head of Brand", "Head", "Marketing", 1, 2),
      role("Marketing Manager", "Manager", "Marketing", 5),
      role("Digital Marketing Manager", "Manager", "Marketing", 3),
      role("Growth Marketing Manager", "Manager", "Marketing", 2, 1),
      role("Brand Manager", "Manager", "Marketing", 2, 1),
      role("Product Marketing Manager", "Manager", "Marketing", 2, 1),
      role("Content Marketing Manager", "Manager", "Marketing", 2),
      role("Senior Marketing Specialist", "Senior", "Marketing", 2),
    ],
  },
  "Software & SaaS": {
    industries: [
      "Computer Software",
      "Information Technology & Services",
      "Internet",
      "Financial Technology",
    ],
    kinds: ["Software", "Labs", "Systems", "Cloud", "Technologies", "Data", "Apps", "Digital"],
    roles: [
      role("Founder & CEO", "Owner", "Executive", 2, 0, 2),
      role("Chief Technology Officer", "C-Level", "Engineering", 2, 0),
      role("VP of Engineering", "VP", "Engineering", 2, 2),
      role("VP of Product", "VP", "Product", 1, 2),
      role("Director of Engineering", "Director", "Engineering", 2, 2),
      role("Head of Product", "Head", "Product", 2, 1),
      role("Head of Customer Success", "Head", "Customer Success", 1, 1),
      role("Engineering Manager", "Manager", "Engineering", 4, 1),
      role("Product Manager", "Manager", "Product", 4),
      role("Senior Software Engineer", "Senior", "Engineering", 3),
    ],
  },
  Healthcare: {
    industries: ["Hospital & Health Care", "Medical Practice", "Mental Health Care"],
    kinds: [
      "Health",
      "Medical Group",
      "Family Practice",
      "Clinic",
      "Health Partners",
      "Care",
      "Medical Center",
      "Dental",
    ],
    roles: [
      role("Practice Owner", "Owner", "Executive", 2, 0, 2),
      role("Chief Medical Officer", "C-Level", "Medical", 1, 3),
      role("Chief Nursing Officer", "C-Level", "Nursing", 1, 3),
      role("Hospital Administrator", "Director", "Administration", 2, 3),
      role("Medical Director", "Director", "Medical", 2, 1),
      role("Director of Nursing", "Director", "Nursing", 2, 2),
      role("Practice Manager", "Manager", "Operations", 4, 0, 3),
      role("Clinical Operations Manager", "Manager", "Operations", 3, 1),
      role("Head of Patient Services", "Head", "Patient Services", 2, 2),
      role("Healthcare Operations Manager", "Manager", "Operations", 3, 1),
    ],
  },
  Finance: {
    industries: [
      "Financial Services",
      "Investment Management",
      "Banking",
      "Accounting",
      "Venture Capital & Private Equity",
    ],
    kinds: [
      "Capital",
      "Financial",
      "Partners",
      "Advisors",
      "Wealth",
      "Investments",
      "Asset Management",
      "Accountants",
    ],
    roles: [
      role("Managing Partner", "Partner", "Executive", 1, 0, 3),
      role("Chief Financial Officer", "C-Level", "Finance", 2, 1),
      role("VP of Finance", "VP", "Finance", 2, 2),
      role("Finance Director", "Director", "Finance", 3, 1),
      role("Investment Director", "Director", "Investments", 1, 1),
      role("Head of Finance", "Head", "Finance", 2, 1),
      role("Financial Controller", "Manager", "Finance", 3, 1),
      role("Treasury Manager", "Manager", "Finance", 1, 3),
      role("Portfolio Manager", "Manager", "Investments", 2),
      role("Senior Financial Analyst", "Senior", "Finance", 3),
    ],
  },
  "Real Estate": {
    industries: ["Real Estate", "Commercial Real Estate", "Property Management"],
    kinds: [
      "Realty",
      "Properties",
      "Real Estate",
      "Homes",
      "Property Group",
      "Estates",
      "Development",
      "Land",
    ],
    roles: [
      role("Broker Owner", "Owner", "Executive", 3, 0, 2),
      role("Managing Broker", "Director", "Sales", 2),
      role("VP of Development", "VP", "Development", 1, 3),
      role("Development Director", "Director", "Development", 2, 1),
      role("Director of Property Management", "Director", "Property Management", 2, 2),
      role("Head of Acquisitions", "Head", "Acquisitions", 1, 2),
      role("Property Manager", "Manager", "Property Management", 4),
      role("Leasing Manager", "Manager", "Leasing", 3),
      role("Asset Manager", "Manager", "Asset Management", 2, 1),
    ],
  },
  "E-commerce": {
    industries: ["Retail", "Internet", "Consumer Goods", "Apparel & Fashion"],
    kinds: ["Goods", "Supply", "Store", "Shop", "Outfitters", "Market", "Brands", "Home"],
    roles: [
      role("Founder & CEO", "Owner", "Executive", 3, 0, 2),
      role("Chief Digital Officer", "C-Level", "Digital", 1, 4),
      role("VP of E-commerce", "VP", "E-commerce", 1, 3),
      role("Director of Digital Retail", "Director", "E-commerce", 2, 2),
      role("Head of E-commerce", "Head", "E-commerce", 3, 1),
      role("Head of Digital", "Head", "Digital", 2, 2),
      role("E-commerce Manager", "Manager", "E-commerce", 5),
      role("Online Store Manager", "Manager", "E-commerce", 3, 0, 3),
      role("Marketplace Manager", "Manager", "E-commerce", 2, 1),
    ],
  },
  "Human Resources": {
    industries: [
      "Human Resources",
      "Staffing & Recruiting",
      "Hospital & Health Care",
      "Retail",
      "Manufacturing",
    ],
    kinds: [
      "Group",
      "Industries",
      "Services",
      "Partners",
      "Staffing",
      "Holdings",
      "Corporation",
      "Solutions",
    ],
    roles: [
      role("HR Manager", "Manager", "Human Resources", 5),
      role("Office & HR Manager", "Manager", "Human Resources", 3, 0, 1),
      role("Chief People Officer", "C-Level", "Human Resources", 1, 3),
      role("VP of People", "VP", "Human Resources", 1, 3),
      role("HR Director", "Director", "Human Resources", 3, 2),
      role("Head of Talent Acquisition", "Head", "Talent Acquisition", 2, 2),
      role("Talent Acquisition Manager", "Manager", "Talent Acquisition", 3, 1),
      role("People Operations Manager", "Manager", "Human Resources", 3, 1),
      role("HR Business Partner", "Senior", "Human Resources", 2, 2),
      role("Senior Recruiter", "Senior", "Talent Acquisition", 2, 1),
    ],
  },
  Legal: {
    industries: ["Law Practice", "Legal Services"],
    kinds: [
      "Law",
      "Legal",
      "Law Group",
      "Legal Partners",
      "Counsel",
      "Advocates",
      "Law Firm",
      "Legal Services",
    ],
    roles: [
      role("Managing Partner", "Partner", "Executive", 3, 0, 4),
      role("Partner", "Partner", "Legal", 4),
      role("General Counsel", "C-Level", "Legal", 2, 2),
      role("Deputy General Counsel", "Director", "Legal", 1, 4),
      role("Head of Legal", "Head", "Legal", 2, 2),
      role("Director of Legal Operations", "Director", "Legal Operations", 1, 4),
      role("Legal Operations Manager", "Manager", "Legal Operations", 2, 3),
      role("Senior Associate", "Senior", "Legal", 3),
      role("Practice Manager", "Manager", "Operations", 2, 0, 3),
    ],
  },
  Education: {
    industries: ["Education Management", "Higher Education", "E-Learning", "Primary/Secondary Education"],
    kinds: ["Academy", "Learning", "Education", "School", "Institute", "College", "Tutoring", "Schools"],
    roles: [
      role("Founder & CEO", "Owner", "Executive", 2, 0, 2),
      role("Principal", "Director", "Administration", 3, 1, 3),
      role("Superintendent", "C-Level", "Administration", 1, 3),
      role("Dean", "Director", "Academic Affairs", 2, 3),
      role("Academic Director", "Director", "Academic Affairs", 2, 1),
      role("Director of Admissions", "Director", "Admissions", 2, 2),
      role("Department Head", "Head", "Academic Affairs", 3, 2),
      role("Head of Curriculum", "Head", "Curriculum", 2, 1),
      role("Program Manager", "Manager", "Operations", 3),
    ],
  },
  Construction: {
    industries: ["Construction", "Civil Engineering", "Building Materials"],
    kinds: [
      "Construction",
      "Builders",
      "Contracting",
      "Building Group",
      "Contractors",
      "Civil",
      "Structures",
      "Homes",
    ],
    roles: [
      role("Owner", "Owner", "Executive", 3, 0, 3),
      role("President", "C-Level", "Executive", 1, 2),
      role("VP of Operations", "VP", "Operations", 1, 3),
      role("Project Director", "Director", "Projects", 2, 2),
      role("Head of Health & Safety", "Head", "Health & Safety", 1, 2),
      role("Construction Manager", "Manager", "Construction", 4),
      role("Project Manager", "Manager", "Projects", 4),
      role("Site Manager", "Manager", "Construction", 3),
      role("Estimating Manager", "Manager", "Estimating", 2, 1),
    ],
  },
};

/** For categories that are not among the demo ones (tests make their own). */
export const GENERIC_PROFILE: Profile = {
  industries: ["Professional Services", "Business Services", "Management Consulting"],
  kinds: ["Group", "Partners", "Consulting", "Solutions", "Services", "Associates", "Holdings", "Co"],
  roles: [
    role("Owner", "Owner", "Executive", 2, 0, 2),
    role("Chief Executive Officer", "C-Level", "Executive", 1, 1),
    role("Chief Operating Officer", "C-Level", "Operations", 1, 2),
    role("Operations Director", "Director", "Operations", 2, 1),
    role("Sales Director", "Director", "Sales", 2, 1),
    role("General Manager", "Manager", "Operations", 3),
    role("Office Manager", "Manager", "Administration", 3),
    role("Business Development Manager", "Manager", "Sales", 3),
  ],
};

export type City = {
  city: string;
  /** US state code, or the UK nation. */
  state: string;
  weight: number;
  /** Real area codes (NANP) for a US city. */
  areaCodes?: string[];
  /** A UK city's number as dialled from abroad, before the local digits ("+44 161"). */
  ukPrefix?: string;
  /** How many local digits follow the UK prefix, and their grouping. */
  ukLocal?: [number, number];
};

export const USA_CITIES: City[] = [
  { city: "New York", state: "NY", weight: 10, areaCodes: ["212", "646", "332", "917", "718", "347", "929"] },
  { city: "Los Angeles", state: "CA", weight: 7, areaCodes: ["213", "323", "310", "424", "818", "747"] },
  { city: "Chicago", state: "IL", weight: 6, areaCodes: ["312", "773", "872"] },
  { city: "Houston", state: "TX", weight: 5, areaCodes: ["713", "281", "832", "346"] },
  { city: "Phoenix", state: "AZ", weight: 3, areaCodes: ["602", "480", "623"] },
  { city: "Philadelphia", state: "PA", weight: 3, areaCodes: ["215", "267", "445"] },
  { city: "San Antonio", state: "TX", weight: 2, areaCodes: ["210"] },
  { city: "San Diego", state: "CA", weight: 3, areaCodes: ["619", "858"] },
  { city: "Dallas", state: "TX", weight: 4, areaCodes: ["214", "469", "972"] },
  { city: "Austin", state: "TX", weight: 3, areaCodes: ["512", "737"] },
  { city: "San Francisco", state: "CA", weight: 4, areaCodes: ["415", "628"] },
  { city: "Seattle", state: "WA", weight: 3, areaCodes: ["206"] },
  { city: "Denver", state: "CO", weight: 3, areaCodes: ["303", "720"] },
  { city: "Boston", state: "MA", weight: 3, areaCodes: ["617", "857"] },
  { city: "Atlanta", state: "GA", weight: 4, areaCodes: ["404", "470", "678", "770"] },
  { city: "Miami", state: "FL", weight: 3, areaCodes: ["305", "786"] },
  { city: "Nashville", state: "TN", weight: 2, areaCodes: ["615", "629"] },
  { city: "Portland", state: "OR", weight: 2, areaCodes: ["503", "971"] },
  { city: "Charlotte", state: "NC", weight: 2, areaCodes: ["704", "980"] },
  { city: "Minneapolis", state: "MN", weight: 2, areaCodes: ["612"] },
  { city: "Columbus", state: "OH", weight: 2, areaCodes: ["614", "380"] },
  { city: "Detroit", state: "MI", weight: 2, areaCodes: ["313"] },
  { city: "Raleigh", state: "NC", weight: 1, areaCodes: ["919", "984"] },
  { city: "Salt Lake City", state: "UT", weight: 1, areaCodes: ["801", "385"] },
];

// UK geographic numbers: London 020 and the two big cities on 029/028 have 8 local digits (written
// 4 + 4), the 01x1 cities 7 (written 3 + 4). London's local numbers start with 3, 7 or 8, Cardiff's
// with 20 and Belfast's with 90.
export const UK_CITIES: City[] = [
  { city: "London", state: "England", weight: 12, ukPrefix: "+44 20", ukLocal: [4, 4] },
  { city: "Manchester", state: "England", weight: 4, ukPrefix: "+44 161", ukLocal: [3, 4] },
  { city: "Birmingham", state: "England", weight: 4, ukPrefix: "+44 121", ukLocal: [3, 4] },
  { city: "Leeds", state: "England", weight: 3, ukPrefix: "+44 113", ukLocal: [3, 4] },
  { city: "Bristol", state: "England", weight: 3, ukPrefix: "+44 117", ukLocal: [3, 4] },
  { city: "Liverpool", state: "England", weight: 2, ukPrefix: "+44 151", ukLocal: [3, 4] },
  { city: "Sheffield", state: "England", weight: 2, ukPrefix: "+44 114", ukLocal: [3, 4] },
  { city: "Newcastle upon Tyne", state: "England", weight: 2, ukPrefix: "+44 191", ukLocal: [3, 4] },
  { city: "Nottingham", state: "England", weight: 2, ukPrefix: "+44 115", ukLocal: [3, 4] },
  { city: "Edinburgh", state: "Scotland", weight: 3, ukPrefix: "+44 131", ukLocal: [3, 4] },
  { city: "Glasgow", state: "Scotland", weight: 3, ukPrefix: "+44 141", ukLocal: [3, 4] },
  { city: "Cardiff", state: "Wales", weight: 2, ukPrefix: "+44 29", ukLocal: [4, 4] },
  { city: "Belfast", state: "Northern Ireland", weight: 2, ukPrefix: "+44 28", ukLocal: [4, 4] },
];

/** Revenue bands a company of each size band reports, repeated by how often. */
export const REVENUE_BY_SIZE: string[][] = [
  ["<$1M", "<$1M", "<$1M", "<$1M", "$1M-$10M"],
  ["<$1M", "$1M-$10M", "$1M-$10M", "$1M-$10M", "$10M-$50M"],
  ["$1M-$10M", "$10M-$50M", "$10M-$50M", "$10M-$50M", "$50M-$100M"],
  ["$10M-$50M", "$50M-$100M", "$50M-$100M", "$100M-$500M"],
  ["$50M-$100M", "$100M-$500M", "$100M-$500M", "$100M-$500M", "$500M+"],
  ["$100M-$500M", "$100M-$500M", "$500M+"],
  ["$500M+"],
];
/** How common each size band is among companies, in percent. */
export const SIZE_WEIGHTS = [15, 25, 25, 15, 8, 8, 4];
/** The fewest and most contacts a company of each size band has in one category. */
export const CONTACTS_BY_SIZE: [number, number][] = [
  [1, 2],
  [1, 3],
  [2, 5],
  [3, 8],
  [4, 12],
  [6, 20],
  [10, 30],
];
