"use client";

import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

export type SecretKeyLabels = { field: string; update: string; draft: string; save: string };

/**
 * A provider's key as Settings shows it: stored sealed, only ever shown masked, replaced through a
 * form that opens on demand. The parent holds the draft (a page-wide save may send it too).
 */
export function SecretKeyField({
  id,
  labels,
  masked,
  fromEnvironment,
  draft,
  onDraft,
  open,
  onOpenChange,
  onSave,
  saving,
  beside,
}: {
  id: string;
  labels: SecretKeyLabels;
  masked: string;
  fromEnvironment: boolean;
  draft: string;
  onDraft: (draft: string) => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSave: (key: string) => void;
  saving: boolean;
  /** Shown next to the masked key. */
  beside?: ReactNode;
}) {
  const close = () => {
    onOpenChange(false);
    onDraft("");
  };
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{labels.field}</Label>
      <div className="flex gap-2">
        <Input id={id} readOnly value={masked} placeholder="No API key configured" className="font-mono" />
        {beside}
      </div>
      {fromEnvironment && (
        <p className="text-sm text-muted-foreground">
          Using the key from the server environment until one is saved here.
        </p>
      )}
      {!open ? (
        <div>
          <Button variant="outline" onClick={() => onOpenChange(true)}>
            {labels.update}
          </Button>
        </div>
      ) : (
        <form
          className="grid gap-2 rounded-md border p-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (draft.trim()) onSave(draft.trim());
          }}
        >
          <Label htmlFor={`${id}-new`}>{labels.draft}</Label>
          <Input
            id={`${id}-new`}
            type="password"
            autoComplete="off"
            value={draft}
            onChange={(event) => onDraft(event.target.value)}
          />
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!draft.trim() || saving}>
              {labels.save}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
