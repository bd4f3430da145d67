import type { ComponentProps } from "react";
import { clsx } from "clsx";

// Our images are files in public/ served as they are, so a plain <img> does all that next/image did
// for them (its `unoptimized` mode) without its client component: 3.5 KB less script on each page
// that shows one.

type StaticImageProps = ComponentProps<"img"> & {
  alt: string;
  /** Cover the positioned parent, like next/image's `fill`. */
  fill?: boolean;
  /** Above the fold: fetched at once and first, instead of when scrolled near. */
  priority?: boolean;
};

export function StaticImage({ fill, priority, className, alt, ...props }: StaticImageProps) {
  return (
    // eslint-disable-next-line @next/next/no-img-element -- see above
    <img
      alt={alt}
      decoding="async"
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      className={clsx(fill && "absolute inset-0 size-full", className)}
      {...props}
    />
  );
}
