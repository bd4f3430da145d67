"use client";

import { useEffect } from "react";
import { scrollToHash } from "@/components/site/scroll";

/** On purpose: on load, when the address carries a hash, scroll smoothly to that element after 100 ms. */
export const HASH_SCROLL_DELAY_MS = 100;

export function HashScroll() {
  useEffect(() => {
    if (!window.location.hash) return;
    const timer = window.setTimeout(() => scrollToHash(window.location.hash), HASH_SCROLL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return null;
}
