import type { Metadata } from "next";
import { pageMetadata } from "@/components/site/metadata";
import { LegalPage } from "@/components/site/legal/legal-page";
import { PRIVACY_EMAIL } from "@/lib/site";

export const metadata: Metadata = pageMetadata({
  title: "Cookie Policy",
  description: "The cookies and browser storage LeadMarket uses, why, and for how long.",
  path: "/cookie-policy",
});

const COOKIES = [
  {
    name: "_ga",
    type: "Analytics",
    purpose: "Distinguishes unique visitors to measure how the site is used.",
    duration: "2 years",
  },
  {
    name: "_gid",
    type: "Analytics",
    purpose: "Distinguishes visitors for daily usage statistics.",
    duration: "24 hours",
  },
  {
    name: "_gat",
    type: "Analytics",
    purpose: "Throttles the rate of analytics requests.",
    duration: "1 minute",
  },
  {
    name: "session",
    type: "Strictly necessary",
    purpose: "Keeps your browsing and checkout working while you use the site.",
    duration: "Session",
  },
  {
    name: "cookie_consent",
    type: "Preferences",
    purpose: "Remembers your cookie choices.",
    duration: "1 year",
  },
];

export default function CookiePolicyPage() {
  return (
    <LegalPage
      title="Cookie Policy"
      email={PRIVACY_EMAIL}
      intro="This Cookie Policy explains what cookies are, which ones LeadMarket uses, what they are for and how long they last, and how you can control them."
    >
      <h2>1. What Are Cookies?</h2>
      <p>
        Cookies are small text files that a website stores on your device. They let the site remember your
        actions and preferences and help us understand how the site is used.
      </p>

      <h2>2. Types of Cookies We Use</h2>
      <ul>
        <li>
          <strong>Strictly necessary cookies</strong> make the site and checkout work. They cannot be switched
          off.
        </li>
        <li>
          <strong>Preference cookies</strong> remember choices such as your cookie settings.
        </li>
        <li>
          <strong>Analytics cookies</strong> tell us, in aggregate, how visitors use the site so we can
          improve it. They are only set with your consent.
        </li>
      </ul>

      <h2>3. Cookies in Detail</h2>
      <div
        className="overflow-x-auto rounded-xl border"
        tabIndex={0}
        role="region"
        aria-label="Cookies in detail"
      >
        <table className="w-full min-w-[36rem] text-left text-sm">
          <caption className="sr-only">
            Cookies used on this website with their type, purpose and duration
          </caption>
          <thead className="bg-muted/60">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Cookie
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Type
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Purpose
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Duration
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {COOKIES.map((cookie) => (
              <tr key={cookie.name}>
                <td className="px-4 py-3 font-mono text-xs">{cookie.name}</td>
                <td className="px-4 py-3">{cookie.type}</td>
                <td className="px-4 py-3">{cookie.purpose}</td>
                <td className="px-4 py-3 whitespace-nowrap">{cookie.duration}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>4. Browser Storage</h2>
      <p>
        Besides cookies, the site keeps a few values in your browser&apos;s session storage while you shop:
        the category and package you chose and the payment reference of your order, so you can check its
        status after paying. They are deleted when you close the tab.
      </p>

      <h2>5. Managing Cookies</h2>
      <p>
        You can accept or refuse non-essential cookies, and delete cookies at any time in your browser
        settings. Blocking strictly necessary cookies may stop parts of the site, such as checkout, from
        working.
      </p>

      <h2>6. Changes to This Policy</h2>
      <p>We may update this Cookie Policy. The date at the top shows when it last changed.</p>
    </LegalPage>
  );
}
