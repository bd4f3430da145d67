"use client";

import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { formatCount, formatDateTime } from "@/components/admin/format";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/use-toast";
import { useUpdateSettings } from "@/lib/client/use-admin";
import { useVerificationStatus } from "@/lib/client/use-admin-verification";
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
  const save = () =>
    update.mutateAsync({ emailVerifierApiKey: apiKey.trim() }).then(
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
        <div className="grid gap-2">
          <Label htmlFor="settings-verifier-key">ZeroBounce API Key</Label>
          <Input
            id="settings-verifier-key"
            readOnly
            value={settings.emailVerifierApiKey}
            placeholder="No API key configured"
            className="font-mono"
          />
          {settings.emailVerifierApiKeySource === "environment" && (
            <p className="text-sm text-muted-foreground">
              Using the key from the server environment until one is saved here.
            </p>
          )}
          {!open ? (
            <div>
              <Button variant="outline" onClick={() => setOpen(true)}>
                Update ZeroBounce Key
              </Button>
            </div>
          ) : (
            <form
              className="grid gap-2 rounded-md border p-4"
              onSubmit={(event) => {
                event.preventDefault();
                if (apiKey.trim()) void save();
              }}
            >
              <Label htmlFor="settings-new-verifier-key">New ZeroBounce Key</Label>
              <Input
                id="settings-new-verifier-key"
                type="password"
                autoComplete="off"
                value={apiKey}
                onChange={(event) => setApiKey(event.target.value)}
              />
              <div className="flex justify-end gap-2">
                <Button type="button" variant="outline" onClick={close}>
                  Cancel
                </Button>
                <Button type="submit" disabled={!apiKey.trim() || update.isPending}>
                  Save ZeroBounce Key
                </Button>
              </div>
            </form>
          )}
        </div>
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
