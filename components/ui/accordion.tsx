import * as React from "react";
import { ChevronDownIcon } from "lucide-react";

import { cn } from "@/lib/utils";

// An accordion of native <details> elements sharing a `name`: the browser keeps one item open at a
// time, lets the open one collapse, handles mouse and keyboard and finds text in closed items, all
// before (and without) any JavaScript, so pages with an accordion ship no script for it.

function Accordion(props: React.ComponentProps<"div">) {
  return <div data-slot="accordion" {...props} />;
}

/** `name`: the same for every item of one accordion. */
function AccordionItem({ className, ...props }: React.ComponentProps<"details"> & { name: string }) {
  return (
    <details
      data-slot="accordion-item"
      className={cn("group border-b last:border-b-0", className)}
      {...props}
    />
  );
}

function AccordionTrigger({ className, children, ...props }: React.ComponentProps<"summary">) {
  return (
    <summary
      data-slot="accordion-trigger"
      className={cn(
        "flex flex-1 cursor-pointer list-none items-start justify-between gap-4 rounded-md py-4 text-left text-sm font-medium transition-all outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden",
        className,
      )}
      {...props}
    >
      {children}
      <ChevronDownIcon
        aria-hidden="true"
        className="pointer-events-none size-4 shrink-0 translate-y-0.5 text-muted-foreground transition-transform duration-200 group-open:rotate-180"
      />
    </summary>
  );
}

function AccordionContent({ className, children, ...props }: React.ComponentProps<"div">) {
  return (
    <div data-slot="accordion-content" className={cn("pt-0 pb-4 text-sm", className)} {...props}>
      {children}
    </div>
  );
}

export { Accordion, AccordionItem, AccordionTrigger, AccordionContent };
