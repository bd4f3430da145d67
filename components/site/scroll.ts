// Smooth scrolling to in-page anchors. Sections carry a scroll margin for the sticky header.
export function scrollToHash(hash: string, behavior: ScrollBehavior = "smooth"): boolean {
  const id = decodeURIComponent(hash.replace(/^#/, ""));
  if (!id) return false;
  const target = document.getElementById(id);
  if (!target) return false;
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({ behavior: reduced ? "auto" : behavior, block: "start" });
  return true;
}

/** Click handler for `#id` links on the current page: scroll smoothly and keep the hash in the address. */
export function handleAnchorClick(event: React.MouseEvent<HTMLAnchorElement>): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
    return;
  const href = event.currentTarget.getAttribute("href") ?? "";
  if (!href.startsWith("#")) return;
  if (scrollToHash(href)) {
    event.preventDefault();
    window.history.pushState(null, "", href);
  }
}
