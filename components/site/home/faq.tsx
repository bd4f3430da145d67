import { AnchorLink } from "@/components/site/anchor-link";
import { SectionHeading } from "@/components/site/section-heading";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";

export const HOME_FAQ = [
  {
    question: "How accurate are your leads?",
    answer:
      "Our data has 93% accuracy, and most leads were verified within the last 30 days. If more than 5% of the leads you buy are invalid, we replace them free of charge.",
  },
  {
    question: "How do I receive my leads?",
    answer:
      "As soon as your payment is confirmed you get a secure download link for your list as CSV and Excel. Custom orders can also be delivered by email or straight into your CRM.",
  },
  {
    question: "How often is the database updated?",
    answer:
      "Every week. We add newly found professionals and re-verify or retire older records, so the list you download is current.",
  },
  {
    question: "Is your data GDPR compliant?",
    answer:
      "Yes. We only collect business contact information, process it on a lawful basis and honour every erasure or objection request.",
  },
  {
    question: "How do I pay?",
    answer:
      "Packages are one-time purchases paid through a cryptocurrency invoice from our payment provider. There is no subscription and nothing renews.",
  },
  {
    question: "Can I get leads for an audience you don't list?",
    answer:
      "Yes. Send a custom request with the platforms, industry and roles you need, and we reply within 24 hours.",
  },
];

export function Faq() {
  return (
    <section aria-labelledby="faq-title" className="bg-muted/40 py-20">
      <div className="mx-auto max-w-3xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="faq-title" eyebrow="FAQ" title="Frequently asked questions" />
        {/* One item open at a time; the open one can be collapsed again. */}
        <Accordion className="mt-10 rounded-2xl border bg-card px-6 shadow-sm">
          {HOME_FAQ.map((item) => (
            <AccordionItem key={item.question} name="faq">
              <AccordionTrigger className="text-base">{item.question}</AccordionTrigger>
              <AccordionContent className="text-muted-foreground">{item.answer}</AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
        <p className="mt-8 text-center text-muted-foreground">
          Still have questions?{" "}
          <AnchorLink
            href="#custom-request"
            className="font-semibold text-primary underline-offset-4 hover:underline"
          >
            Contact our support team
          </AnchorLink>
        </p>
      </div>
    </section>
  );
}
