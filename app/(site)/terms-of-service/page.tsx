import type { Metadata } from "next";
import Link from "next/link";
import { pageMetadata } from "@/components/site/metadata";
import { LegalPage } from "@/components/site/legal/legal-page";

// Per request: the canonical address and the footer's year come from the running server, not
// the build.
export const dynamic = "force-dynamic";

export const metadata: Metadata = pageMetadata({
  title: "Terms of Service",
  description: "The terms that govern buying and using LeadMarket lead lists and custom lead services.",
  path: "/terms-of-service",
});

export default function TermsOfServicePage() {
  return (
    <LegalPage
      title="Terms of Service"
      intro="These Terms of Service govern your use of the LeadMarket website and your purchase of lead lists and custom lead services. By using our website or buying from us, you agree to these terms."
    >
      <h2>1. Our Services</h2>
      <p>
        LeadMarket sells verified business-to-business contact lists of professionals in the USA and UK,
        grouped by category and sold as fixed packages, and prepares custom lead lists on request.
      </p>

      <h2>2. Eligibility</h2>
      <p>
        You must be at least 18 years old and buy on behalf of a business. By purchasing you confirm that you
        have the authority to accept these terms for that business.
      </p>

      <h2>3. Orders and Payment</h2>
      <ul>
        <li>
          Packages are one-time purchases: Starter (1,000 leads) for $10, Standard (10,000 leads) for $100 and
          Premium (20,000+ leads) for $200, in US dollars.
        </li>
        <li>
          Payment is made through a cryptocurrency invoice issued by our payment provider. An order is
          complete once the provider confirms payment of the full amount.
        </li>
        <li>Prices may change, but never for an order that has already been paid.</li>
      </ul>

      <h2>4. Delivery</h2>
      <p>
        Lead lists are delivered as an instant download in CSV and Excel format through a secure link, which
        stays valid for 30 days after payment. Custom orders may be delivered by email or directly into your
        CRM.
      </p>

      <h2>5. Replacement Guarantee and Refunds</h2>
      <p>
        If more than 5% of the leads in a purchased list are invalid, we replace the invalid leads free of
        charge. Report invalid leads within 30 days of purchase. Because data is delivered instantly,
        purchases are otherwise non-refundable.
      </p>

      <h2>6. Acceptable Use</h2>
      <p>You agree to use the data lawfully, and in particular:</p>
      <ul>
        <li>
          to comply with anti-spam and privacy laws that apply to your outreach, such as CAN-SPAM, the TCPA,
          the GDPR and PECR;
        </li>
        <li>to honour every opt-out and erasure request you receive;</li>
        <li>not to resell, sublicense or publish the data, in whole or in part;</li>
        <li>not to use the data for unlawful, deceptive or harassing purposes.</li>
      </ul>

      <h2>7. Intellectual Property</h2>
      <p>
        The website, its content and our databases are owned by LeadMarket. Each purchase grants you a
        non-exclusive, non-transferable licence to use the delivered data for your own business purposes.
      </p>

      <h2>8. Disclaimers</h2>
      <p>
        We work hard to keep our data accurate (93% accuracy, weekly updates), but the data is provided
        &quot;as is&quot;. We do not guarantee any particular business result from its use.
      </p>

      <h2>9. Limitation of Liability</h2>
      <p>
        To the extent permitted by law, LeadMarket is not liable for indirect, incidental or consequential
        damages, and our total liability for any claim is limited to the amount you paid for the order
        concerned.
      </p>

      <h2>10. Indemnification</h2>
      <p>
        You agree to indemnify LeadMarket against claims arising from your use of the data in breach of these
        terms or of applicable law.
      </p>

      <h2>11. Dispute Resolution and Binding Arbitration</h2>
      <p>
        Any dispute arising out of or relating to these terms or our services will be resolved by binding
        arbitration administered by the American Arbitration Association under its Commercial Arbitration
        Rules, held in San Francisco, California. Claims are brought individually, not as part of a class or
        representative action. Either party may still seek injunctive relief in court for misuse of
        intellectual property.
      </p>

      <h2>12. Governing Law</h2>
      <p>
        These terms are governed by the laws of the State of California, without regard to its conflict of law
        rules.
      </p>

      <h2>13. Changes to These Terms</h2>
      <p>
        We may update these terms. The version in force when you place an order applies to that order. Our{" "}
        <Link href="/privacy-policy" className="text-primary underline">
          Privacy Policy
        </Link>{" "}
        explains how we handle personal data.
      </p>
    </LegalPage>
  );
}
