import type { ReactNode } from "react";
import { Providers } from "@/components/providers";

// React Query only where its forms are (components/providers.tsx).
export default function QueryLayout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
