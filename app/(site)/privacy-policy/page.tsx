import type { Metadata } from "next";
import Link from "next/link";
import { pageMetadata } from "@/components/site/metadata";
import { LegalPage } from "@/components/site/legal/legal-page";
import { PRIVACY_EMAIL } from "@/lib/site";

export const metadata: Metadata = pageMetadata({
  title: "Privacy Policy",
  description:
    "How LeadMarket collects, uses and protects personal data, and how to exercise your GDPR rights.",
  path: "/privacy-policy",
});

export default function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      email={PRIVACY_EMAIL}
      intro="This Privacy Policy explains what personal data LeadMarket collects, why we collect it, how we protect it and the rights you have over it, whether you are a customer, a visitor of our website or a professional whose business contact details are in our database."
    >
      <h2>1. Who We Are</h2>
      <p>
        LeadMarket Inc. (&quot;LeadMarket&quot;, &quot;we&quot;, &quot;us&quot;) operates this website and
        sells verified business-to-business contact lists. For the purposes of the EU and UK General Data
        Protection Regulation (GDPR), LeadMarket is the data controller of the personal data described in this
        policy.
      </p>

      <h2>2. Information We Collect</h2>
      <h3>Information you give us</h3>
      <ul>
        <li>
          Custom lead requests: your name, email address, the platforms, industry and roles you are interested
          in, your message and any files you attach.
        </li>
        <li>Newsletter sign-ups: your email address.</li>
        <li>
          Purchases: the package and category you buy and the payment reference issued by our payment
          provider. We never receive or store your wallet keys or card details.
        </li>
      </ul>
      <h3>Information collected automatically</h3>
      <ul>
        <li>
          Technical data such as your IP address, browser type, pages visited and the time of your visit.
        </li>
        <li>
          Cookies and similar technologies, as described in our{" "}
          <Link href="/cookie-policy" className="text-primary underline">
            Cookie Policy
          </Link>
          .
        </li>
      </ul>
      <h3>Business contact data in our lead database</h3>
      <p>
        Our database holds professional information that is publicly available, mainly on business social
        networks: name, job title, seniority, department, company, company website, company size and revenue,
        business email, business phone, city, state, country and public profile URL. We do not collect special
        categories of data.
      </p>

      <h2>3. How We Use Your Information</h2>
      <ul>
        <li>To deliver the lead lists you buy and to confirm your payment.</li>
        <li>To answer custom lead requests, usually within 24 hours.</li>
        <li>To send the newsletter you subscribed to; you can unsubscribe at any time.</li>
        <li>To keep our website secure, prevent fraud and improve our services.</li>
        <li>To comply with our legal obligations.</li>
      </ul>

      <h2>4. Legal Bases for Processing</h2>
      <p>
        We process personal data on the basis of the performance of a contract (delivering your purchase), our
        legitimate interests (operating a B2B data service, security, fraud prevention), your consent
        (newsletter, non-essential cookies) and compliance with legal obligations.
      </p>

      <h2>5. Sharing Your Information</h2>
      <p>
        We do not sell the personal data of our customers. We share data only with service providers who
        process it on our behalf under written agreements: our cryptocurrency payment provider, our hosting
        and email providers. We may disclose data where the law requires it.
      </p>

      <h2>6. Data Retention</h2>
      <p>
        Order records are kept for as long as tax and accounting law requires. Custom requests are kept for up
        to 24 months after our last contact. Database records are re-verified weekly and removed when they can
        no longer be verified or when the person concerned asks us to erase them.
      </p>

      <h2>7. Your Rights Under the GDPR</h2>
      <p>If you are in the European Economic Area or the United Kingdom, you have the following rights:</p>
      <ul>
        <li>
          <strong>Right of access:</strong> to obtain a copy of the personal data we hold about you.
        </li>
        <li>
          <strong>Right to rectification:</strong> to have inaccurate data corrected.
        </li>
        <li>
          <strong>Right to erasure</strong> (&quot;right to be forgotten&quot;): to have your personal data
          deleted, including from our lead database.
        </li>
        <li>
          <strong>Right to restriction of processing:</strong> to limit how we use your data.
        </li>
        <li>
          <strong>Right to data portability:</strong> to receive your data in a structured, machine-readable
          format.
        </li>
        <li>
          <strong>Right to object:</strong> to processing based on legitimate interests, including direct
          marketing.
        </li>
        <li>
          <strong>Right to withdraw consent</strong> at any time, without affecting earlier processing.
        </li>
        <li>
          <strong>Right to lodge a complaint</strong> with your local data protection authority.
        </li>
      </ul>
      <p>
        California residents have similar rights under the California Consumer Privacy Act (CCPA), including
        the right to know, to delete and to opt out of the sale of personal information.
      </p>
      <p>
        To see every record we hold about your email address, or to have it erased, use our{" "}
        <Link href="/privacy/requests" className="text-primary underline">
          privacy requests page
        </Link>
        : we mail you a confirmation link, and once you confirm, access reports are mailed at once and erasure
        happens at once (your address is then kept only as a one-way hash, so it is never imported again). To
        exercise any other right, email us at the address below; we answer within 30 days.
      </p>

      <h2>8. Security</h2>
      <p>
        We protect personal data with encryption in transit, access controls and encrypted storage of
        sensitive settings. No method of transmission over the internet is completely secure, but we work hard
        to protect your data.
      </p>

      <h2>9. International Transfers</h2>
      <p>
        We are based in the United States. When we transfer personal data from the EEA or the UK, we rely on
        the European Commission&apos;s Standard Contractual Clauses or another lawful transfer mechanism.
      </p>

      <h2>10. Children&apos;s Privacy</h2>
      <p>Our services are intended for businesses and are not directed at anyone under 16.</p>

      <h2>11. Changes to This Policy</h2>
      <p>
        We may update this policy from time to time. The date at the top shows when it last changed;
        significant changes will be announced on this website.
      </p>
    </LegalPage>
  );
}
