"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { makeQueryClient } from "@/lib/client/query-client";

// Mounted by the layouts of the routes whose components use React Query (admin, category, orders,
// order, privacy) and around the lazily loaded custom request form, not by the root layout: the home
// page and the static pages then ship without it.
export function Providers({ children }: { children: ReactNode }) {
  // One client per browser session (and per server render), never shared between users.
  const [queryClient] = useState(makeQueryClient);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
