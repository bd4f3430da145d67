"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState } from "react";
import { Skeleton } from "@/components/ui/skeleton";

/** Where the form's code starts loading: well before the section scrolls into view. */
const PRELOAD_MARGIN = "1000px 0px";

function FormPlaceholder() {
  return (
    <div aria-hidden="true" className="grid gap-6">
      <Skeleton className="h-24 w-full" />
      <div className="grid gap-4 sm:grid-cols-2">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
      <Skeleton className="h-28 w-full" />
      <div className="grid gap-4 sm:grid-cols-2">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-10 w-full" />
    </div>
  );
}

// The form submits through React Query; its provider comes with it, so the home page loads neither
// before the visitor comes near the form.
const CustomRequestForm = dynamic(
  () =>
    Promise.all([import("@/components/custom-request/custom-request-form"), import("@/components/providers")]).then(
      ([form, providers]) =>
        function CustomRequestFormWithQuery() {
          return (
            <providers.Providers>
              <form.CustomRequestForm />
            </providers.Providers>
          );
        },
    ),
  { ssr: false, loading: FormPlaceholder },
);

/**
 * The custom request form (and its validation code) is far down the home page: its code loads only
 * when the visitor comes near the section, or arrives at /#custom-request, so the first screen
 * stays fast on phones.
 */
export function LazyCustomRequestForm() {
  const anchor = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);

  useEffect(() => {
    const element = anchor.current;
    if (!element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: PRELOAD_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return <div ref={anchor}>{near ? <CustomRequestForm /> : <FormPlaceholder />}</div>;
}
