import Link from "next/link";
import { cn } from "@/lib/utils";
import { SITE_NAME } from "@/lib/site";

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn("size-8", className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path d="M9 8v16h14v-4h-9.5V8z" className="fill-primary-foreground" />
      <circle cx="22" cy="11" r="3" className="fill-primary-foreground/70" />
    </svg>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <Link
      href="/"
      className={cn("flex items-center gap-2 rounded-md text-lg font-bold tracking-tight", className)}
      aria-label={`${SITE_NAME} home`}
    >
      <LogoMark />
      <span>
        Lead<span className="text-primary">Market</span>
      </span>
    </Link>
  );
}
