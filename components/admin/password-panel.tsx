"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/components/ui/use-toast";
import { HttpError } from "@/lib/client/fetcher";
import { useChangePassword } from "@/lib/client/use-admin";
import { setAdminToken } from "@/lib/client/admin-api";
import { changePasswordSchema } from "@/lib/schemas/admin";
import { fieldErrors } from "@/lib/schemas/common";

// The panel's fields, named as the change-password body names them (plus the confirmation).
const PASSWORD_FIELDS = [
  {
    name: "currentPassword",
    id: "current-password",
    label: "Current Password",
    autoComplete: "current-password",
  },
  { name: "newPassword", id: "new-password", label: "New Password", autoComplete: "new-password" },
  {
    name: "confirmPassword",
    id: "confirm-password",
    label: "Confirm New Password",
    autoComplete: "new-password",
  },
] as const;

type PasswordValues = Record<(typeof PASSWORD_FIELDS)[number]["name"], string>;
const NO_PASSWORDS: PasswordValues = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function PasswordPanel() {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<PasswordValues>(NO_PASSWORDS);
  // Per-field messages: the handler's schema run here first, then the server's `errors` map.
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = useChangePassword();

  const close = () => {
    setOpen(false);
    setValues(NO_PASSWORDS);
    setErrors({});
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (values.newPassword !== values.confirmPassword) {
      setErrors({});
      toast({
        title: "Passwords don't match",
        description: "New password and confirmation must match",
        variant: "destructive",
      });
      return;
    }
    const parsed = changePasswordSchema.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      setErrors(found);
      const tooShort = parsed.error.issues.some(
        (issue) => issue.path[0] === "newPassword" && issue.code === "too_small",
      );
      toast(
        tooShort
          ? { title: "Password too short", description: found.newPassword, variant: "destructive" }
          : {
              title: "Password change failed",
              description: Object.values(found).join("; "),
              variant: "destructive",
            },
      );
      return;
    }
    setErrors({});
    change.mutate(parsed.data, {
      onSuccess: ({ token }) => {
        // Earlier tokens stop working with the change; this one keeps the admin signed in.
        setAdminToken(token);
        toast({ title: "Password changed", description: "Your password has been updated successfully" });
        close();
      },
      onError: (error) => {
        setErrors((error instanceof HttpError && error.errors) || {});
        toast({
          title: "Password change failed",
          description: "Failed to update your password. Please check your current password.",
          variant: "destructive",
        });
      },
    });
  };

  if (!open) {
    return (
      <div className="flex items-center justify-between gap-4">
        <div>
          <div className="text-sm font-medium">Password</div>
          <div className="text-sm text-muted-foreground">••••••••</div>
        </div>
        <Button variant="outline" onClick={() => setOpen(true)}>
          Change Password
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="grid gap-3 rounded-md border p-4" aria-label="Change password">
      {PASSWORD_FIELDS.map((field) => (
        <div key={field.name} className="grid gap-2">
          <Label htmlFor={field.id}>{field.label}</Label>
          <Input
            id={field.id}
            type="password"
            autoComplete={field.autoComplete}
            value={values[field.name]}
            aria-invalid={errors[field.name] ? true : undefined}
            aria-describedby={errors[field.name] ? `${field.id}-error` : undefined}
            onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
          />
          <FieldError id={`${field.id}-error`} message={errors[field.name]} />
        </div>
      ))}
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={close} disabled={change.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? "Saving..." : "Save Password"}
        </Button>
      </div>
    </form>
  );
}
