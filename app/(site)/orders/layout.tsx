import type { ReactNode } from "react";
import { Providers } from "@/app/providers";

// React Query only where its forms are (app/providers.tsx).
export default function QueryLayout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
