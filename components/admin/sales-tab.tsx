"use client";

import { ArrowDown, ArrowUp, Download } from "lucide-react";
import { useState } from "react";
import { formatCount, formatDateTime, formatUsd, packageLabel } from "@/components/admin/format";
import { Pager } from "@/components/admin/pager";
import { SaleDetailDialog } from "@/components/admin/sale-detail-dialog";
import { TableStateRows } from "@/components/admin/table-state-rows";
import { SaleStatusBadge } from "@/components/admin/status-badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/use-toast";
import { useAdminSales } from "@/lib/client/use-admin";
import { adminDownload } from "@/lib/client/admin-api";
import { SALE_FILTERS, type SaleFilter } from "@/lib/schemas/admin";

const PAGE_SIZE = 50;

const FILTER_LABELS: Record<SaleFilter | "all", string> = {
  all: "All statuses",
  confirmed: "Confirmed",
  pending: "Pending",
  expired: "Expired",
  cancelled: "Cancelled",
  failed: "Failed",
};

export function SalesTab({ autoRefresh }: { autoRefresh: number | false }) {
  const [page, setPage] = useState(1);
  const [order, setOrder] = useState<"asc" | "desc">("desc");
  const [status, setStatus] = useState<SaleFilter | "all">("all");
  const [exporting, setExporting] = useState(false);
  const [openSale, setOpenSale] = useState<string | null>(null);
  const sales = useAdminSales(page, order, PAGE_SIZE, status, { refetchInterval: autoRefresh });

  const exportCsv = async () => {
    setExporting(true);
    try {
      await adminDownload("/api/admin/sales/export", "sales.csv");
    } catch {
      toast({
        title: "Export failed",
        description: "Could not export the sales. Please try again.",
        variant: "destructive",
      });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle asChild>
          <h2>All Sales{sales.data ? ` (${formatCount(sales.data.total)})` : ""}</h2>
        </CardTitle>
        <div className="flex flex-wrap items-center gap-2">
          <Select
            value={status}
            onValueChange={(value) => {
              setStatus(value as SaleFilter | "all");
              setPage(1);
            }}
          >
            <SelectTrigger className="w-40" aria-label="Filter by status">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {(["all", ...SALE_FILTERS] as const).map((value) => (
                <SelectItem key={value} value={value}>
                  {FILTER_LABELS[value]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <Button variant="outline" onClick={exportCsv} disabled={exporting}>
            {exporting ? <Spinner size="sm" label="Exporting" /> : <Download />}
            Export Data
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead aria-sort={order === "desc" ? "descending" : "ascending"}>
                <button
                  type="button"
                  className="inline-flex items-center gap-1 font-medium"
                  onClick={() => {
                    setOrder(order === "desc" ? "asc" : "desc");
                    setPage(1);
                  }}
                >
                  Date
                  {order === "desc" ? <ArrowDown className="size-3" /> : <ArrowUp className="size-3" />}
                  <span className="sr-only">, sort {order === "desc" ? "oldest first" : "newest first"}</span>
                </button>
              </TableHead>
              <TableHead>Payment ID</TableHead>
              <TableHead>Category</TableHead>
              <TableHead>Package</TableHead>
              <TableHead className="text-right">Lead Count</TableHead>
              <TableHead className="text-right">Amount</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>
                <span className="sr-only">Details</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {sales.data?.items.map((sale) => (
              <TableRow key={sale._id}>
                <TableCell className="whitespace-nowrap">{formatDateTime(sale.createdAt)}</TableCell>
                <TableCell className="max-w-48 truncate font-mono text-xs" title={sale.paymentId}>
                  {sale.paymentId}
                </TableCell>
                <TableCell>
                  {sale.leadTitle}
                  {sale.segment && (
                    <span className="block text-xs text-muted-foreground" data-testid="sale-segment">
                      {sale.segment}
                    </span>
                  )}
                </TableCell>
                <TableCell>{packageLabel(sale.packageType)}</TableCell>
                <TableCell className="text-right">{formatCount(sale.leadCount)}</TableCell>
                <TableCell className="text-right">{formatUsd(sale.amount)}</TableCell>
                <TableCell>
                  <SaleStatusBadge status={sale.status} />
                </TableCell>
                <TableCell>
                  <Button variant="ghost" size="sm" onClick={() => setOpenSale(sale._id)}>
                    Details
                  </Button>
                </TableCell>
              </TableRow>
            ))}
            <TableStateRows
              columns={8}
              loading={sales.isLoading}
              empty={sales.data?.items.length === 0}
              loadingLabel="Loading sales"
              emptyText="No sales yet"
            />
          </TableBody>
        </Table>
        {sales.data && <Pager page={page} pageSize={PAGE_SIZE} total={sales.data.total} onPage={setPage} />}
        <SaleDetailDialog saleId={openSale} onClose={() => setOpenSale(null)} />
      </CardContent>
    </Card>
  );
}
