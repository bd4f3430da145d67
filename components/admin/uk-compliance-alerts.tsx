"use client";

import { ShieldAlert } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { UkComplianceDto } from "@/lib/schemas/admin";

/** What the admin must still do before UK rows may be sold; nothing when all is in order. */
export function UkComplianceAlerts({ uk, onSettings }: { uk: UkComplianceDto; onSettings: () => void }) {
  const warnings: string[] = [];
  if (uk.sellerMissing.length > 0) {
    warnings.push(`Seller identity incomplete: add ${uk.sellerMissing.join(", ")} in Settings.`);
  }
  if (uk.registersMissing.length > 0) {
    warnings.push(
      `Upload the ${uk.registersMissing.join(" and ")} register in Settings: UK phones are unscreened until both are loaded.`,
    );
  }
  if (uk.screeningWarning) warnings.push(uk.screeningWarning);
  if (!uk.notices.enabled) {
    warnings.push(
      "Privacy notices are off: UK rows sell without Article 14 notices. Turn them on in Settings.",
    );
  }
  if (warnings.length === 0) return null;
  return (
    <Card role="alert" className="border-amber-500/60">
      <CardHeader className="flex flex-row items-center gap-2">
        <ShieldAlert className="size-5 text-amber-600" aria-hidden />
        <CardTitle asChild>
          <h2>Before UK rows can be sold</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="list-disc space-y-1 pl-5 text-sm">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
        <button type="button" className="mt-3 text-sm font-medium underline" onClick={onSettings}>
          Open Settings
        </button>
      </CardContent>
    </Card>
  );
}
