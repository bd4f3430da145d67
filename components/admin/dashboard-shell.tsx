"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { CategoriesTab } from "@/components/admin/categories-tab";
import { DashboardHeader } from "@/components/admin/dashboard-header";
import { OverviewTab } from "@/components/admin/overview-tab";
import { PrivacyRequestsCard } from "@/components/admin/privacy-requests-card";
import { RequestsTab } from "@/components/admin/requests-tab";
import { SalesTab } from "@/components/admin/sales-tab";
import { SettingsTab } from "@/components/admin/settings-tab";
import { Sidebar, SidebarDrawer } from "@/components/admin/sidebar";
import { isTab, TAB_TITLES, type Tab } from "@/components/admin/tabs";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/use-toast";
import { adminKeys } from "@/lib/client/query-keys";
import { AUTO_REFRESH_MS, useAdminCategories, useAdminSettings, useAdminStats } from "@/lib/client/use-admin";
import { ADMIN_UNAUTHORIZED_EVENT, clearAdminToken, getAdminToken } from "@/lib/client/admin-api";

/** The dashboard renders nothing of the admin's data until a token is known to exist. */
export function DashboardShell() {
  const router = useRouter();
  const [ready, setReady] = useState(false);
  const [tab, setTab] = useState<string>("dashboard");

  const toLogin = useCallback(() => {
    clearAdminToken();
    toast({
      title: "Authentication required",
      description: "Please login to access the admin dashboard",
      variant: "destructive",
    });
    router.replace("/admin/login");
  }, [router]);

  useEffect(() => {
    if (!getAdminToken()) {
      toLogin();
      return;
    }
    // The tab is kept in the address so a reload stays on it; anything unknown is shown as such.
    const fromUrl = new URLSearchParams(window.location.search).get("tab");
    // eslint-disable-next-line react-hooks/set-state-in-effect -- local storage is only readable after mount
    if (fromUrl) setTab(fromUrl);
    setReady(true);
    window.addEventListener(ADMIN_UNAUTHORIZED_EVENT, toLogin);
    return () => window.removeEventListener(ADMIN_UNAUTHORIZED_EVENT, toLogin);
  }, [toLogin]);

  const selectTab = (next: Tab) => {
    setTab(next);
    const url = new URL(window.location.href);
    url.searchParams.set("tab", next);
    window.history.replaceState(null, "", url);
  };

  if (!ready) {
    return (
      <div className="flex min-h-dvh items-center justify-center">
        <Spinner size="lg" label="Checking your session" />
      </div>
    );
  }
  return <Dashboard tab={tab} onSelect={selectTab} />;
}

function Dashboard({ tab, onSelect }: { tab: string; onSelect: (tab: Tab) => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [menuOpen, setMenuOpen] = useState(false);
  const settings = useAdminSettings();
  const autoRefresh = settings.data?.autoRefreshDashboard ? AUTO_REFRESH_MS : false;
  const stats = useAdminStats({ refetchInterval: autoRefresh });
  const categories = useAdminCategories({ refetchInterval: autoRefresh });

  const logout = () => {
    clearAdminToken();
    queryClient.removeQueries({ queryKey: adminKeys.all });
    toast({ title: "Logged out" });
    router.push("/admin/login");
  };

  const title = isTab(tab) ? TAB_TITLES[tab] : "Select a tab to view data";
  const sidebar = {
    active: tab,
    onSelect,
    onLogout: logout,
    salesCount: stats.data?.totalSales,
    categoriesCount: categories.data?.length,
    pendingRequests: stats.data?.pendingRequests,
  };
  return (
    <div className="flex min-h-dvh bg-muted/30">
      <Sidebar {...sidebar} />
      <SidebarDrawer {...sidebar} open={menuOpen} onOpenChange={setMenuOpen} />
      <div className="flex min-w-0 flex-1 flex-col">
        <DashboardHeader
          title={title}
          pendingRequests={stats.data?.pendingRequests ?? 0}
          email={settings.data?.email}
          menuOpen={menuOpen}
          onMenu={() => setMenuOpen(true)}
        />
        <main className="min-w-0 flex-1 p-4 md:p-6">
          {tab === "dashboard" && <OverviewTab onSelect={onSelect} autoRefresh={autoRefresh} />}
          {tab === "sales" && <SalesTab autoRefresh={autoRefresh} />}
          {tab === "categories" && <CategoriesTab />}
          {tab === "requests" && (
            <div className="space-y-6">
              <RequestsTab autoRefresh={autoRefresh} />
              <PrivacyRequestsCard autoRefresh={autoRefresh} />
            </div>
          )}
          {tab === "settings" && <SettingsTab />}
          {!isTab(tab) && <p className="text-muted-foreground">Select a tab to view data</p>}
        </main>
      </div>
    </div>
  );
}
