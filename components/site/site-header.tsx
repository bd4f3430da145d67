"use client";

import { MenuIcon, XIcon } from "lucide-react";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Logo } from "@/components/site/logo";
import { NAV_LINKS } from "@/lib/site";
import { handleAnchorClick } from "@/components/site/scroll";
import { clsx } from "clsx";

/** By design: the header turns translucent once the page is scrolled more than 50px. */
export const SCROLL_THRESHOLD_PX = 50;
/** By design: the toggle menu is used below 768px (Tailwind's `md`). */
const DESKTOP_QUERY = "(min-width: 768px)";

export function SiteHeader() {
  const pathname = usePathname();
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  // Off the home page the anchors point back to the home page's sections.
  const prefix = pathname === "/" ? "" : "/";

  useEffect(() => {
    const update = () => setScrolled(window.scrollY > SCROLL_THRESHOLD_PX);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  useEffect(() => {
    const media = window.matchMedia(DESKTOP_QUERY);
    // The event's own state: by the time it is handled the window may have narrowed again.
    const close = (event: MediaQueryListEvent) => {
      if (event.matches) setMenuOpen(false);
    };
    media.addEventListener("change", close);
    return () => media.removeEventListener("change", close);
  }, []);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    // Any move to another anchor (back button, typed address) also closes the menu.
    const close = () => setMenuOpen(false);
    window.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", close);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("hashchange", close);
    };
  }, [menuOpen]);

  const onLinkClick = (event: React.MouseEvent<HTMLAnchorElement>) => {
    setMenuOpen(false);
    handleAnchorClick(event);
  };

  return (
    <header
      data-scrolled={scrolled}
      className={clsx(
        "sticky top-0 z-40 w-full border-b transition-[background-color,border-color,box-shadow] duration-300",
        scrolled || menuOpen
          ? "border-border/60 bg-background/80 shadow-sm backdrop-blur-md supports-[backdrop-filter]:bg-background/70"
          : "border-transparent bg-transparent",
      )}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Logo />
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {NAV_LINKS.map((link) => (
              <li key={link.hash}>
                <a
                  href={`${prefix}#${link.hash}`}
                  onClick={onLinkClick}
                  className="rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          <Button asChild className="hidden sm:inline-flex">
            <a href={`${prefix}#custom-request`} onClick={onLinkClick}>
              Request Custom Leads
            </a>
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <XIcon aria-hidden="true" /> : <MenuIcon aria-hidden="true" />}
          </Button>
        </div>
      </div>
      {menuOpen ? (
        <nav id="mobile-menu" aria-label="Mobile" className="border-t md:hidden">
          <ul className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-3 sm:px-6">
            {NAV_LINKS.map((link) => (
              <li key={link.hash}>
                <a
                  href={`${prefix}#${link.hash}`}
                  onClick={onLinkClick}
                  className="block rounded-md px-3 py-2.5 text-base font-medium hover:bg-accent hover:text-accent-foreground"
                >
                  {link.label}
                </a>
              </li>
            ))}
            <li className="pt-2">
              <Button asChild className="w-full">
                <a href={`${prefix}#custom-request`} onClick={onLinkClick}>
                  Request Custom Leads
                </a>
              </Button>
            </li>
          </ul>
        </nav>
      ) : null}
    </header>
  );
}
