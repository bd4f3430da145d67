import Link from "next/link";
import { LogoMark } from "@/components/site/logo";
import { NewsletterForm } from "@/components/site/newsletter-form";
import { FacebookIcon, InstagramIcon, LinkedInIcon, XBrandIcon } from "@/components/site/social-icons";
import { CONTACT_EMAIL, LEGAL_LINKS, NAV_LINKS, RESOURCE_LINKS, SITE_NAME } from "@/lib/site";

const SOCIAL_LINKS = [
  { label: "LinkedIn", href: "https://www.linkedin.com/", Icon: LinkedInIcon },
  { label: "X (Twitter)", href: "https://x.com/", Icon: XBrandIcon },
  { label: "Facebook", href: "https://www.facebook.com/", Icon: FacebookIcon },
  { label: "Instagram", href: "https://www.instagram.com/", Icon: InstagramIcon },
];

const linkClass = "text-sm text-muted-foreground transition-colors hover:text-foreground";

function FooterHeading({ id, children }: { id?: string; children: React.ReactNode }) {
  return (
    <h2 id={id} className="text-sm font-semibold tracking-wide text-foreground">
      {children}
    </h2>
  );
}

export function SiteFooter() {
  // Rendered per request, so the copyright year is always the current one.
  const year = new Date().getFullYear();
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1.4fr] lg:px-8">
        <div className="space-y-4">
          <Link href="/" className="flex w-fit items-center gap-2 rounded-md text-lg font-bold">
            <LogoMark />
            <span>
              Lead<span className="text-primary">Market</span>
            </span>
          </Link>
          <p className="max-w-xs text-sm text-muted-foreground">
            Verified B2B contact lists of decision makers in the USA and UK. 93% accuracy, weekly updates and
            GDPR-compliant data, delivered as an instant download.
          </p>
          <ul className="flex gap-2" aria-label="Social media">
            {SOCIAL_LINKS.map(({ label, href, Icon }) => (
              <li key={label}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${SITE_NAME} on ${label}`}
                  className="flex size-9 items-center justify-center rounded-full border bg-background text-muted-foreground transition-colors hover:border-primary hover:text-primary"
                >
                  <Icon className="size-4" />
                </a>
              </li>
            ))}
          </ul>
        </div>

        <nav aria-labelledby="footer-quick-links" className="space-y-3">
          <FooterHeading id="footer-quick-links">Quick Links</FooterHeading>
          <ul className="space-y-2">
            {NAV_LINKS.map((link) => (
              <li key={link.hash}>
                <a href={`/#${link.hash}`} className={linkClass}>
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <Link href="/orders" className={linkClass}>
                Find my orders
              </Link>
            </li>
          </ul>
        </nav>

        <nav aria-labelledby="footer-resources" className="space-y-3">
          <FooterHeading id="footer-resources">Resources</FooterHeading>
          <ul className="space-y-2">
            {RESOURCE_LINKS.map((link) => (
              <li key={link.label}>
                <a href={link.href} className={linkClass}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="space-y-3">
          <FooterHeading>Stay up to date</FooterHeading>
          <p className="text-sm text-muted-foreground">
            Lead generation tips and new categories, once a month. No spam.
          </p>
          <NewsletterForm />
          <p className="text-sm text-muted-foreground">
            Questions?{" "}
            <a
              href={`mailto:${CONTACT_EMAIL}`}
              className="font-medium text-foreground underline-offset-4 hover:underline"
            >
              {CONTACT_EMAIL}
            </a>
          </p>
        </div>
      </div>
      <div className="border-t">
        <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm text-muted-foreground sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <p>
            © {year} {SITE_NAME}. All rights reserved.
          </p>
          <nav aria-label="Legal">
            <ul className="flex flex-wrap gap-x-5 gap-y-2">
              {LEGAL_LINKS.map((link) => (
                <li key={link.href}>
                  <Link href={link.href} className="hover:text-foreground">
                    {link.label}
                  </Link>
                </li>
              ))}
              <li>
                <Link href="/privacy/requests" className="hover:text-foreground">
                  Privacy Requests
                </Link>
              </li>
              <li>
                <a href="#" className="hover:text-foreground">
                  Contact Us
                </a>
              </li>
            </ul>
          </nav>
        </div>
      </div>
    </footer>
  );
}
