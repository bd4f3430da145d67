"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import { useToast } from "@/components/ui/use-toast";

// The toast UI (Radix Toast with its layers and swipe handling) is not needed to show a page, so
// its code is fetched once the browser is idle after loading, or at once when a toast is raised
// before that. The toast store is module-level: a toast raised earlier is shown when it mounts.
const Toaster = dynamic(() => import("@/components/ui/toaster").then((module) => module.Toaster), {
  ssr: false,
});

/** Mount once (e.g. in the root layout) instead of `Toaster` to keep it off the first load. */
export function LazyToaster() {
  const { toasts } = useToast();
  const [idle, setIdle] = useState(false);

  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(() => setIdle(true), { timeout: 4000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => setIdle(true), 2000);
    return () => clearTimeout(timer);
  }, []);

  return idle || toasts.length > 0 ? <Toaster /> : null;
}
