"use client";

import { Bell, Menu, RefreshCw } from "lucide-react";
import { useIsFetching } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { adminKeys } from "@/lib/client/query-keys";
import { cn } from "@/lib/utils";

export function DashboardHeader({
  title,
  pendingRequests,
  email,
  menuOpen,
  onMenu,
}: {
  title: string;
  pendingRequests: number;
  email?: string;
  menuOpen: boolean;
  /** Opens the sidebar drawer (below 768px, where the sidebar is hidden). */
  onMenu: () => void;
}) {
  // The product's refresh button does nothing on click; it only shows that data is loading.
  const loading = useIsFetching({ queryKey: adminKeys.all }) > 0;
  return (
    <header className="sticky top-0 z-10 flex h-16 items-center gap-2 border-b bg-background px-3 sm:gap-4 md:px-6">
      <Button
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-label="Open menu"
        aria-expanded={menuOpen}
        aria-haspopup="dialog"
        onClick={onMenu}
      >
        <Menu />
      </Button>
      <h1 className="min-w-0 flex-1 truncate text-lg font-semibold sm:text-xl">{title}</h1>
      <Button variant="ghost" size="icon" aria-label="Refresh" data-loading={loading || undefined}>
        <RefreshCw className={cn(loading && "animate-spin")} />
      </Button>
      <div className="relative">
        <Button variant="ghost" size="icon" aria-label={`Notifications: ${pendingRequests} pending requests`}>
          <Bell />
        </Button>
        {pendingRequests > 0 && (
          <span
            data-testid="notification-badge"
            className="pointer-events-none absolute -top-0.5 -right-0.5 flex min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-xs font-semibold text-destructive-foreground"
          >
            {pendingRequests > 9 ? "9+" : pendingRequests}
          </span>
        )}
      </div>
      <div className="flex items-center gap-3 border-l pl-2 sm:pl-4">
        <span
          aria-hidden="true"
          className="flex size-9 items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground"
        >
          A
        </span>
        <div className="hidden text-sm leading-tight sm:block">
          <div className="font-medium">Admin</div>
          <div className="text-muted-foreground">{email ?? ""}</div>
        </div>
      </div>
    </header>
  );
}
