import { expect, type Locator, type Page } from "@playwright/test";

/**
 * The open toast with exactly this title (and description, when given). Radix also announces each
 * toast in a live region, so a bare getByText would match twice.
 */
export async function expectToast(page: Page, title: string, description?: string): Promise<Locator> {
  const toast = page
    .locator('[data-slot="toast"]')
    .filter({ has: page.locator('[data-slot="toast-title"]', { hasText: title }) })
    .first();
  await expect(toast.locator('[data-slot="toast-title"]')).toHaveText(title);
  if (description !== undefined) {
    await expect(toast.locator('[data-slot="toast-description"]')).toHaveText(description);
  }
  return toast;
}
