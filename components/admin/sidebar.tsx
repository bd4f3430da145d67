"use client";

import { FolderOpen, LayoutDashboard, LogOut, MessageSquare, Settings, ShoppingCart } from "lucide-react";
import type { ComponentType } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetTitle } from "@/components/ui/sheet";
import type { Tab } from "@/components/admin/tabs";
import { cn } from "@/lib/utils";

type Item = { tab: Tab; label: string; icon: ComponentType<{ className?: string }> };

const ITEMS: Item[] = [
  { tab: "dashboard", label: "Dashboard", icon: LayoutDashboard },
  { tab: "sales", label: "Sales", icon: ShoppingCart },
  { tab: "categories", label: "Categories", icon: FolderOpen },
  { tab: "requests", label: "Requests", icon: MessageSquare },
  { tab: "settings", label: "Settings", icon: Settings },
];

type SidebarProps = {
  active: string;
  onSelect: (tab: Tab) => void;
  onLogout: () => void;
  salesCount?: number;
  categoriesCount?: number;
  pendingRequests?: number;
};

function SidebarNav(props: SidebarProps) {
  const badge = (tab: Tab) => {
    if (tab === "sales" && props.salesCount !== undefined) {
      return (
        <Badge variant="secondary" aria-label={`${props.salesCount} sales`}>
          {props.salesCount}
        </Badge>
      );
    }
    if (tab === "categories" && props.categoriesCount !== undefined) {
      return (
        <Badge variant="secondary" aria-label={`${props.categoriesCount} categories`}>
          {props.categoriesCount}
        </Badge>
      );
    }
    if (tab === "requests" && props.pendingRequests) {
      return (
        <Badge variant="destructive" aria-label={`${props.pendingRequests} pending requests`}>
          {props.pendingRequests}
        </Badge>
      );
    }
    return null;
  };
  return (
    <>
      <nav className="flex-1 space-y-1 p-3">
        {ITEMS.map(({ tab, label, icon: Icon }) => (
          <button
            key={tab}
            type="button"
            onClick={() => props.onSelect(tab)}
            aria-current={props.active === tab ? "page" : undefined}
            className={cn(
              "flex w-full items-center gap-3 rounded-md px-3 py-2 text-left text-sm font-medium transition-colors",
              props.active === tab ? "bg-primary text-primary-foreground" : "hover:bg-accent",
            )}
          >
            <Icon className="size-4" />
            <span className="flex-1">{label}</span>
            {badge(tab)}
          </button>
        ))}
      </nav>
      <div className="border-t p-3">
        <Button variant="ghost" className="w-full justify-start" onClick={props.onLogout}>
          <LogOut />
          Logout
        </Button>
      </div>
    </>
  );
}

/** The product's 16rem sidebar, from 768px up. */
export function Sidebar(props: SidebarProps) {
  return (
    <aside
      className="sticky top-0 hidden h-dvh w-64 shrink-0 flex-col border-r bg-background md:flex"
      aria-label="Admin"
    >
      <div className="flex h-16 items-center border-b px-6 text-lg font-bold">LeadMarket Admin</div>
      <SidebarNav {...props} />
    </aside>
  );
}

/** Below 768px the same sidebar is a drawer, opened from the header's menu button. */
export function SidebarDrawer({
  open,
  onOpenChange,
  ...props
}: SidebarProps & { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent aria-label="Admin" aria-describedby={undefined} closeLabel="Close menu">
        <SheetTitle className="flex h-16 shrink-0 items-center border-b px-6 text-lg font-bold">
          LeadMarket Admin
        </SheetTitle>
        <SidebarNav
          {...props}
          onSelect={(tab) => {
            onOpenChange(false);
            props.onSelect(tab);
          }}
        />
      </SheetContent>
    </Sheet>
  );
}
