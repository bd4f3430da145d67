// The fixed copy of the category page (docs/product-rules.md: Benefits has 4 fixed bullets, How It Works
// 4 steps, FAQ 3 questions). Kept apart from the markup so tests and structured data can share it.
export const CATEGORY_BENEFITS = [
  "Reach decision makers directly, without gatekeepers",
  "Shorten your sales cycle with pre-qualified contacts",
  "Launch email, phone and social campaigns the same day",
  "Free replacement if more than 5% of leads are invalid",
];

export const CATEGORY_STEPS = [
  {
    title: "Choose your package",
    text: "Pick Starter, Standard or Premium, depending on how many leads you need.",
  },
  { title: "Pay securely", text: "Pay a one-time cryptocurrency invoice that opens in a new tab." },
  {
    title: "Instant download",
    text: "Once the payment is confirmed, your list downloads as CSV, with Excel one click away.",
  },
  {
    title: "Start your outreach",
    text: "Import the leads into your CRM or email tool and start reaching out.",
  },
];

export function categoryFaq(title: string) {
  return [
    {
      question: `How fresh are the ${title} leads?`,
      answer:
        "The database is updated weekly, and most leads were verified within the last 30 days. Every record carries its verification date.",
    },
    {
      question: "What format will I receive?",
      answer:
        "You get an instant download as CSV, and the same list as an Excel file, through a secure link that stays valid for 30 days.",
    },
    {
      question: "What if some leads are invalid?",
      answer:
        "Our data has 93% accuracy. If more than 5% of the leads you bought are invalid, contact us and we replace them free of charge.",
    },
  ];
}
