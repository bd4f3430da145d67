export const TABS = ["dashboard", "sales", "categories", "requests", "settings"] as const;
export type Tab = (typeof TABS)[number];

export const TAB_TITLES: Record<Tab, string> = {
  dashboard: "Dashboard Overview",
  sales: "Sales Transactions",
  categories: "Lead Categories",
  requests: "Custom Requests",
  settings: "Settings",
};

export function isTab(value: string): value is Tab {
  return (TABS as readonly string[]).includes(value);
}
