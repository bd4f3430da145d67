"use client";

import * as React from "react";
import { MoveHorizontalIcon } from "lucide-react";

import { clsx } from "clsx";

type Overflow = { start: boolean; end: boolean };

/** Which sides of a horizontally scrolling element have more content out of view. */
function useHorizontalOverflow(ref: React.RefObject<HTMLElement | null>): Overflow {
  const [overflow, setOverflow] = React.useState<Overflow>({ start: false, end: false });
  React.useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const update = () => {
      const hidden = node.scrollWidth - node.clientWidth;
      const start = node.scrollLeft > 1;
      const end = node.scrollLeft < hidden - 1;
      setOverflow((current) => (current.start === start && current.end === end ? current : { start, end }));
    };
    update();
    // Rows arriving, columns growing and the window resizing all change what is out of view.
    const observer = new ResizeObserver(update);
    observer.observe(node);
    if (node.firstElementChild) observer.observe(node.firstElementChild);
    node.addEventListener("scroll", update, { passive: true });
    return () => {
      observer.disconnect();
      node.removeEventListener("scroll", update);
    };
  }, [ref]);
  return overflow;
}

/**
 * A table that scrolls sideways inside its own box when it is wider than it, never the page. Faded
 * edges and a hint show that more columns are out of view.
 */
function Table({
  className,
  hintClassName,
  ...props
}: React.ComponentProps<"table"> & {
  /** Classes for the "scroll sideways" hint, e.g. to line it up with padded cells. */
  hintClassName?: string;
}) {
  const scroller = React.useRef<HTMLDivElement>(null);
  const overflow = useHorizontalOverflow(scroller);
  const scrollable = overflow.start || overflow.end;
  const edge = "pointer-events-none absolute inset-y-0 w-8 from-card to-transparent transition-opacity";
  return (
    <div data-slot="table-frame" className="grid">
      <div className="relative min-w-0">
        <div
          ref={scroller}
          data-slot="table-container"
          data-overflow={scrollable ? "true" : "false"}
          // Keyboard users can scroll it too once it scrolls.
          tabIndex={scrollable ? 0 : undefined}
          className="relative w-full overflow-x-auto focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          <table data-slot="table" className={clsx("ui-table", className)} {...props} />
        </div>
        <div
          aria-hidden="true"
          className={clsx(edge, "left-0 bg-gradient-to-r", overflow.start ? "opacity-100" : "opacity-0")}
        />
        <div
          aria-hidden="true"
          className={clsx(edge, "right-0 bg-gradient-to-l", overflow.end ? "opacity-100" : "opacity-0")}
        />
      </div>
      {scrollable && (
        <p data-slot="table-scroll-hint" className={clsx("ui-table-hint", hintClassName)}>
          <MoveHorizontalIcon className="size-3.5" aria-hidden="true" />
          Scroll sideways to see every column
        </p>
      )}
    </div>
  );
}

function TableHeader({ className, ...props }: React.ComponentProps<"thead">) {
  return <thead data-slot="table-header" className={clsx("ui-table-header", className)} {...props} />;
}

function TableBody({ className, ...props }: React.ComponentProps<"tbody">) {
  return <tbody data-slot="table-body" className={clsx("ui-table-body", className)} {...props} />;
}

function TableRow({ className, ...props }: React.ComponentProps<"tr">) {
  return <tr data-slot="table-row" className={clsx("ui-table-row", className)} {...props} />;
}

function TableHead({ className, ...props }: React.ComponentProps<"th">) {
  return <th data-slot="table-head" className={clsx("ui-table-head", className)} {...props} />;
}

function TableCell({ className, ...props }: React.ComponentProps<"td">) {
  return <td data-slot="table-cell" className={clsx("ui-table-cell", className)} {...props} />;
}

export { Table, TableHeader, TableBody, TableHead, TableRow, TableCell };
