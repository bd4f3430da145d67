"use client";

import {
  MailCheck,
  MailX,
  Clock,
  DollarSign,
  Database,
  MessageSquare,
  Percent,
  Receipt,
  RefreshCw,
  ShoppingCart,
  TrendingDown,
  TrendingUp,
  Users,
} from "lucide-react";
import type { ComponentType, ReactNode } from "react";
import {
  formatCount,
  formatDate,
  formatUsd,
  industryLabel,
  packageLabel,
  platformLabels,
} from "@/components/admin/format";
import { RevenueChart } from "@/components/admin/revenue-chart";
import { RequestStatusBadge, SaleStatusBadge } from "@/components/admin/status-badge";
import type { Tab } from "@/components/admin/tabs";
import { UkComplianceAlerts } from "@/components/admin/uk-compliance-alerts";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useAdminRequests, useAdminSales, useAdminStats } from "@/lib/client/use-admin";
import type { StatsDto } from "@/lib/schemas/admin";

const RECENT = 5;

function StatCard(props: {
  title: string;
  value: ReactNode;
  detail: ReactNode;
  icon: ComponentType<{ className?: string }>;
}) {
  const Icon = props.icon;
  return (
    <Card className="gap-2">
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle asChild>
          <h2 className="text-sm font-medium text-muted-foreground">{props.title}</h2>
        </CardTitle>
        <Icon className="size-4 text-muted-foreground" />
      </CardHeader>
      <CardContent>
        <div className="text-2xl font-bold">{props.value}</div>
        <div className="mt-1 text-xs text-muted-foreground">{props.detail}</div>
      </CardContent>
    </Card>
  );
}

function Trend({ value }: { value: number }) {
  const up = value >= 0;
  const Icon = up ? TrendingUp : TrendingDown;
  return (
    <span
      className={
        up ? "inline-flex items-center gap-1 text-success" : "inline-flex items-center gap-1 text-destructive"
      }
    >
      <Icon className="size-3" />
      {up ? "+" : ""}
      {value}% from last week
    </span>
  );
}

function insights(stats: StatsDto) {
  return [
    {
      title: "Avg. Request Response",
      value: stats.completedRequests > 0 ? "48 hours" : "N/A",
      detail: "Promise to customers: within 24 hours",
      icon: Clock,
    },
    {
      title: "Payment Conversion",
      value: stats.totalSales > 0 ? `${Math.round((stats.confirmedSales / stats.totalSales) * 100)}%` : "N/A",
      detail: "Invoices that were paid",
      icon: Percent,
    },
    {
      title: "Avg. Order Value",
      value: stats.confirmedSales > 0 ? formatUsd(stats.totalRevenue / stats.confirmedSales) : "N/A",
      detail: "Per confirmed sale",
      icon: Receipt,
    },
    {
      title: "Replacement Rate",
      value: stats.confirmedSales > 0 ? `${stats.replacementRate}%` : "N/A",
      detail: `Paid orders with an accepted replacement claim (${formatCount(stats.replacementClaims)})`,
      icon: RefreshCw,
    },
    {
      title: "Invalid Found",
      value: formatCount(stats.invalidFoundThisMonth),
      detail: "Addresses our checks found invalid this month",
      icon: MailX,
    },
    {
      title: "Privacy Notices",
      value: stats.ukCompliance.notices.enabled
        ? formatCount(stats.ukCompliance.notices.sentThisMonth)
        : "Off",
      detail: stats.ukCompliance.notices.enabled
        ? `Sent this month; ${formatCount(stats.ukCompliance.notices.waiting)} UK leads queued, ${formatCount(stats.ukCompliance.notices.optedOutThisMonth)} opted out this month`
        : "UK rows sell without Article 14 notices",
      icon: MailCheck,
    },
    {
      title: "Leads in Stock",
      value: formatCount(stats.totalLeads),
      detail: `Across ${stats.totalCategories} categories`,
      icon: Database,
    },
  ];
}

export function OverviewTab({
  onSelect,
  autoRefresh,
}: {
  onSelect: (tab: Tab) => void;
  autoRefresh: number | false;
}) {
  const stats = useAdminStats({ refetchInterval: autoRefresh });
  const sales = useAdminSales(1, "desc", RECENT, "all", { refetchInterval: autoRefresh });
  const requests = useAdminRequests(1, RECENT, { refetchInterval: autoRefresh });
  const s = stats.data;

  if (!s) {
    return (
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-32" />
        ))}
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <UkComplianceAlerts uk={s.ukCompliance} onSettings={() => onSelect("settings")} />
      <section className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-4" aria-label="Key figures">
        <StatCard
          title="Total Revenue"
          value={formatUsd(s.totalRevenue)}
          detail={<Trend value={s.revenueTrend} />}
          icon={DollarSign}
        />
        <StatCard
          title="Total Sales"
          value={formatCount(s.totalSales)}
          detail={`${formatCount(s.confirmedSales)} confirmed, ${formatCount(s.pendingSales)} pending`}
          icon={ShoppingCart}
        />
        <StatCard
          title="Leads Sold"
          value={formatCount(s.leadsSold)}
          detail={`Avg. ${formatUsd(s.averagePricePerLead)} per lead`}
          icon={Users}
        />
        <StatCard
          title="Custom Requests"
          value={formatCount(s.totalRequests)}
          detail={`${formatCount(s.pendingRequests)} pending, ${formatCount(s.completedRequests)} completed`}
          icon={MessageSquare}
        />
      </section>

      <section
        className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5"
        aria-label="Insights"
      >
        {insights(s).map((insight) => (
          <StatCard key={insight.title} {...insight} />
        ))}
      </section>

      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Revenue, last 30 days</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <RevenueChart days={s.revenueByDay} />
        </CardContent>
      </Card>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader className="flex flex-row items-center justify-between">
            <CardTitle asChild>
              <h2>Recent Sales</h2>
            </CardTitle>
            <Button variant="link" size="sm" onClick={() => onSelect("sales")} aria-label="View all sales">
              View all
            </Button>
          </CardHeader>
          <CardContent>
            {sales.data?.items.length ? (
              <ul className="divide-y">
                {sales.data.items.map((sale) => (
                  <li key={sale._id} className="flex items-center justify-between gap-3 py-3">
                    <div className="min-w-0">
                      <div className="truncate font-medium">{sale.leadTitle}</div>
                      <div className="text-xs text-muted-foreground">
                        {packageLabel(sale.packageType)} · {formatDate(sale.createdAt)}
                      </div>
                    </div>
                    <div className="flex items-center gap-2">
                      <span className="font-medium">{formatUsd(sale.amount)}</span>
                      <SaleStatusBadge status={sale.status} />
                    </div>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted-foreground">
                {sales.isLoading ? "Loading..." : "No sales yet"}
              </p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader className="flex flex-row items-center justify-between">
            <CardTitle asChild>
              <h2>Recent Requests</h2>
            </CardTitle>
            <Button
              variant="link"
              size="sm"
              onClick={() => onSelect("requests")}
              aria-label="View all requests"
            >
              View all
            </Button>
          </CardHeader>
          <CardContent>
            {requests.data?.items.length ? (
              <ul className="divide-y">
                {requests.data.items.map((request) => (
                  <li key={request._id} className="flex items-center justify-between gap-3 py-3">
                    <div className="min-w-0">
                      <div className="truncate font-medium">{request.name}</div>
                      <div className="truncate text-xs text-muted-foreground">
                        {industryLabel(request.industry)} · {platformLabels(request.platform)} ·{" "}
                        {formatDate(request.createdAt)}
                      </div>
                    </div>
                    <RequestStatusBadge status={request.status} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted-foreground">
                {requests.isLoading ? "Loading..." : "No requests yet"}
              </p>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
