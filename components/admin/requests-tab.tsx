"use client";

import { Download, Paperclip } from "lucide-react";
import { useState } from "react";
import {
  formatCount,
  formatDate,
  formatTime,
  industryLabel,
  platformLabels,
  REQUEST_STATUS_LABELS,
} from "@/components/admin/format";
import { Pager } from "@/components/admin/pager";
import { RequestDetailsDialog } from "@/components/admin/request-details-dialog";
import { RequestStatusActions, type SettableStatus } from "@/components/admin/request-status-actions";
import { TableStateRows } from "@/components/admin/table-state-rows";
import { RequestStatusBadge } from "@/components/admin/status-badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/use-toast";
import { useAdminRequests, useUpdateRequestStatus } from "@/lib/client/use-admin";
import { adminDownload } from "@/lib/client/admin-api";
import type { RequestDto } from "@/lib/schemas/admin";

const PAGE_SIZE = 50;

// Everything a visitor wrote is rendered as text by React, never as HTML.
export function RequestsTab({ autoRefresh }: { autoRefresh: number | false }) {
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  // The id only: the dialog shows the request as the latest list has it (status changes included).
  const [openId, setOpenId] = useState<string | null>(null);
  const requests = useAdminRequests(page, PAGE_SIZE, { refetchInterval: autoRefresh });
  const update = useUpdateRequestStatus();

  const setStatus = (request: RequestDto, status: SettableStatus) =>
    update.mutate(
      { id: request._id, status },
      {
        onSuccess: () =>
          toast({
            title: "Status updated",
            description: `Request status has been updated to ${REQUEST_STATUS_LABELS[status]}`,
          }),
        onError: () =>
          toast({
            title: "Update failed",
            description: "Failed to update request status",
            variant: "destructive",
          }),
      },
    );

  const download = async (url: string, name: string) => {
    try {
      await adminDownload(url, name);
    } catch {
      toast({
        title: "Download failed",
        description: "Could not download the file. Please try again.",
        variant: "destructive",
      });
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    await download("/api/admin/requests/export", "custom-requests.csv");
    setExporting(false);
  };

  const busyId = update.isPending ? update.variables?.id : undefined;
  const opened = requests.data?.items.find((request) => request._id === openId);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle asChild>
          <h2>All Requests{requests.data ? ` (${formatCount(requests.data.total)})` : ""}</h2>
        </CardTitle>
        <Button variant="outline" onClick={exportCsv} disabled={exporting}>
          {exporting ? <Spinner size="sm" label="Exporting" /> : <Download />}
          Export
        </Button>
      </CardHeader>
      <CardContent className="px-3 md:px-4">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Date</TableHead>
              <TableHead>Name</TableHead>
              <TableHead>Email</TableHead>
              <TableHead>Industry</TableHead>
              <TableHead>Platform</TableHead>
              <TableHead>Message</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {requests.data?.items.map((request) => (
              <TableRow key={request._id} data-request-id={request._id}>
                <TableCell className="leading-tight">
                  <div>{formatDate(request.createdAt)}</div>
                  <div className="text-xs text-muted-foreground">{formatTime(request.createdAt)}</div>
                </TableCell>
                <TableCell className="max-w-32 truncate" title={request.name}>
                  {request.name}
                </TableCell>
                <TableCell className="max-w-44 truncate">
                  <a
                    className="text-primary underline-offset-4 hover:underline"
                    href={`mailto:${request.email}`}
                    title={request.email}
                  >
                    {request.email}
                  </a>
                </TableCell>
                <TableCell>{industryLabel(request.industry)}</TableCell>
                <TableCell className="max-w-28 min-w-20 whitespace-normal">
                  {platformLabels(request.platform)}
                </TableCell>
                <TableCell className="max-w-48 min-w-32 whitespace-normal">
                  <p className="line-clamp-2 break-words" title={request.message}>
                    {request.message || <span className="text-muted-foreground">No message</span>}
                  </p>
                  {request.attachments.length > 0 && (
                    <p className="mt-1 flex items-center gap-1 text-xs text-muted-foreground">
                      <Paperclip className="size-3 shrink-0" aria-hidden="true" />
                      {request.attachments.length === 1
                        ? "1 attachment"
                        : `${request.attachments.length} attachments`}
                    </p>
                  )}
                </TableCell>
                <TableCell>
                  <RequestStatusBadge status={request.status} />
                </TableCell>
                <TableCell>
                  <div className="flex flex-col items-stretch gap-1.5">
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={`Details of the request from ${request.name}`}
                      onClick={() => setOpenId(request._id)}
                    >
                      Details
                    </Button>
                    <RequestStatusActions
                      request={request}
                      busy={busyId === request._id}
                      onSet={setStatus}
                      className="flex-col items-stretch gap-1.5"
                    />
                  </div>
                </TableCell>
              </TableRow>
            ))}
            <TableStateRows
              columns={8}
              loading={requests.isLoading}
              empty={requests.data?.items.length === 0}
              loadingLabel="Loading requests"
              emptyText="No custom requests yet"
            />
          </TableBody>
        </Table>
        {requests.data && (
          <Pager page={page} pageSize={PAGE_SIZE} total={requests.data.total} onPage={setPage} />
        )}
      </CardContent>
      <RequestDetailsDialog
        request={opened}
        busy={opened !== undefined && busyId === opened._id}
        onClose={() => setOpenId(null)}
        onSetStatus={setStatus}
        onDownload={download}
      />
    </Card>
  );
}
