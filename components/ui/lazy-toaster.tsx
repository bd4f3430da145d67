"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { useToast } from "@/components/ui/use-toast";

// The toast UI (Radix Toast with its layers and swipe handling) is not needed until there is a
// toast to show, so its code is fetched when the first toast is raised, and the page's first load
// does without it. The toast store is module-level: a toast raised before it mounts is shown then.
const Toaster = dynamic(() => import("@/components/ui/toaster").then((module) => module.Toaster), {
  ssr: false,
});

/** Mount once (e.g. in the root layout) instead of `Toaster` to keep it off the first load. */
export function LazyToaster() {
  const { toasts } = useToast();
  // Stays mounted once loaded, so a toast's exit animation and the next toasts run as usual.
  const [needed, setNeeded] = useState(false);
  if (toasts.length > 0 && !needed) setNeeded(true);

  return needed ? <Toaster /> : null;
}
