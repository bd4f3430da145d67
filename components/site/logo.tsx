import Link from "next/link";
import { SITE_NAME } from "@/lib/site";

export function LogoMark() {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className="size-8">
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path d="M9 8v16h14v-4h-9.5V8z" className="fill-primary-foreground" />
      <circle cx="22" cy="11" r="3" className="fill-primary-foreground/70" />
    </svg>
  );
}

export function Logo() {
  return (
    <Link
      href="/"
      className="flex items-center gap-2 rounded-md text-lg font-bold tracking-tight"
      aria-label={`${SITE_NAME} home`}
    >
      <LogoMark />
      <span>
        Lead<span className="text-primary">Market</span>
      </span>
    </Link>
  );
}
