import Link from "next/link";
import { CONTACT_EMAIL, LEGAL_LAST_UPDATED, LEGAL_LINKS, POSTAL_ADDRESS } from "@/lib/site";

/** Shared frame of the three legal pages: title, last-updated date, readable prose, contact block. */
export function LegalPage({
  title,
  intro,
  email = CONTACT_EMAIL,
  children,
}: {
  title: string;
  intro: string;
  email?: string;
  children: React.ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:py-16">
      <header className="border-b pb-8">
        <p className="text-sm font-semibold tracking-wide text-primary uppercase">Legal</p>
        <h1 className="mt-2 text-4xl font-extrabold">{title}</h1>
        <p className="mt-3 text-sm text-muted-foreground">Last updated: {LEGAL_LAST_UPDATED}</p>
        <p className="mt-5 text-lg text-muted-foreground">{intro}</p>
      </header>
      <div className="mt-8 space-y-4 leading-relaxed text-foreground/90 [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-foreground [&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-foreground [&_li]:pl-1 [&_strong]:text-foreground [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6">
        {children}
        <h2>Contact Us</h2>
        <p>If you have any questions about this policy or our practices, contact us:</p>
        <address className="rounded-xl border bg-muted/40 p-5 not-italic">
          <p>
            Email:{" "}
            <a
              href={`mailto:${email}`}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              {email}
            </a>
          </p>
          <p className="mt-2">
            {POSTAL_ADDRESS.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </p>
        </address>
      </div>
      <nav aria-label="Other legal pages" className="mt-12 flex flex-wrap gap-4 border-t pt-6 text-sm">
        {LEGAL_LINKS.filter((link) => link.label !== title).map((link) => (
          <Link
            key={link.href}
            href={link.href}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            {link.label}
          </Link>
        ))}
      </nav>
    </article>
  );
}
