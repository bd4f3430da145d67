"use client";

import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { formatCount, formatDateTime } from "@/components/admin/format";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/use-toast";
import { useUpdateSettings } from "@/lib/client/use-admin";
import { useVerificationStatus } from "@/lib/client/use-admin-verification";
import { SecretKeyField } from "@/components/admin/secret-key-field";
import type { SettingsDto } from "@/lib/schemas/admin";

/**
 * The verification provider (ZeroBounce): its key, stored sealed and only ever shown masked, the
 * credits it has left, this month's use and the last error the checks met.
 */
export function VerificationSettings({ settings }: { settings: SettingsDto }) {
  const status = useVerificationStatus();
  const update = useUpdateSettings();
  const [open, setOpen] = useState(false);
  const [apiKey, setApiKey] = useState("");

  const close = () => {
    setOpen(false);
    setApiKey("");
  };
  const save = (key: string) =>
    update.mutateAsync({ emailVerifierApiKey: key }).then(
      () => {
        toast({ title: "Settings updated", description: "The verification provider key was saved" });
        close();
        void status.refetch();
      },
      () =>
        toast({ title: "Update failed", description: "Failed to update settings", variant: "destructive" }),
    );

  const data = status.data;
  const credits = !data
    ? null
    : !data.configured
      ? "No provider configured"
      : data.credits !== null
        ? formatCount(data.credits)
        : `Unavailable: ${data.creditsError}`;
  const rows: [string, string | null][] = [
    ["Credits remaining", credits],
    [
      "Sent this month",
      data
        ? `${formatCount(data.sentThisMonth)}${data.monthlyLimit === null ? "" : ` of ${formatCount(data.monthlyLimit)}`}`
        : null,
    ],
    [
      "Last error",
      data ? (data.lastError ? `${data.lastError} (${formatDateTime(data.lastErrorAt!)})` : "None") : null,
    ],
  ];

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Email Verification</h2>
        </CardTitle>
        <CardDescription>
          ZeroBounce checks mailboxes for the re-checks and replacement claims. Without a key, only our own
          checks run (syntax and the domain&apos;s mail servers).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <SecretKeyField
          id="settings-verifier-key"
          labels={{
            field: "ZeroBounce API Key",
            update: "Update ZeroBounce Key",
            draft: "New ZeroBounce Key",
            save: "Save ZeroBounce Key",
          }}
          masked={settings.emailVerifierApiKey}
          fromEnvironment={settings.emailVerifierApiKeySource === "environment"}
          draft={apiKey}
          onDraft={setApiKey}
          open={open}
          onOpenChange={setOpen}
          onSave={(key) => void save(key)}
          saving={update.isPending}
        />
        <dl className="divide-y rounded-lg border text-sm" aria-label="Verification provider status">
          {rows.map(([label, value]) => (
            <div key={label} className="flex justify-between gap-4 px-3 py-2">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="text-right font-medium break-all">
                {value ?? <Spinner size="sm" label={`Loading ${label.toLowerCase()}`} />}
              </dd>
            </div>
          ))}
        </dl>
        <div>
          <Button
            variant="outline"
            size="sm"
            disabled={status.isFetching}
            onClick={() => void status.refetch()}
          >
            <RefreshCw />
            Check credits
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
