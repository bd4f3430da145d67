"use client";

import { Download, Paperclip } from "lucide-react";
import { useState } from "react";
import { formatCount, formatDateTime } from "@/components/admin/format";
import { Pager } from "@/components/admin/pager";
import { TableStateRows } from "@/components/admin/table-state-rows";
import { RequestStatusBadge } from "@/components/admin/status-badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/use-toast";
import { useAdminRequests, useUpdateRequestStatus } from "@/lib/queries/use-admin";
import { adminDownload } from "@/lib/queries/use-admin-token";
import type { RequestDto } from "@/lib/schemas/admin";

const PAGE_SIZE = 50;

function kb(size: number): string {
  return `${(size / 1024).toFixed(1)} KB`;
}

// Everything a visitor wrote is rendered as text by React, never as HTML.
export function RequestsTab({ autoRefresh }: { autoRefresh: number | false }) {
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const requests = useAdminRequests(page, PAGE_SIZE, { refetchInterval: autoRefresh });
  const update = useUpdateRequestStatus();

  const setStatus = (request: RequestDto, status: "in_progress" | "completed") =>
    update.mutate(
      { id: request._id, status },
      {
        onSuccess: () =>
          toast({ title: "Status updated", description: `Request status has been updated to ${status}` }),
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
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle asChild>
          <h2>All Requests{requests.data ? ` (${formatCount(requests.data.total)})` : ""}</h2>
        </CardTitle>
        <Button variant="outline" onClick={exportCsv} disabled={exporting}>
          {exporting ? <Spinner size="sm" label="Exporting" /> : <Download />}
          Export
        </Button>
      </CardHeader>
      <CardContent>
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
                <TableCell className="whitespace-nowrap">{formatDateTime(request.createdAt)}</TableCell>
                <TableCell className="max-w-40 truncate" title={request.name}>
                  {request.name}
                </TableCell>
                <TableCell>
                  <a
                    className="text-primary underline-offset-4 hover:underline"
                    href={`mailto:${request.email}`}
                  >
                    {request.email}
                  </a>
                </TableCell>
                <TableCell>{request.industry}</TableCell>
                <TableCell>{request.platform}</TableCell>
                <TableCell className="max-w-72 whitespace-normal">
                  <p className="line-clamp-3 break-words" title={request.message}>
                    {request.message || <span className="text-muted-foreground">No message</span>}
                  </p>
                  {request.attachments.length > 0 && (
                    <ul className="mt-1 space-y-0.5">
                      {request.attachments.map((file) => (
                        <li key={file._id}>
                          <button
                            type="button"
                            className="inline-flex max-w-full items-center gap-1 text-xs text-primary hover:underline"
                            onClick={() =>
                              download(
                                `/api/admin/requests/${request._id}/attachments/${file._id}`,
                                file.fileName,
                              )
                            }
                          >
                            <Paperclip className="size-3 shrink-0" />
                            <span className="truncate">{file.fileName}</span>
                            <span className="text-muted-foreground">({kb(file.size)})</span>
                          </button>
                        </li>
                      ))}
                    </ul>
                  )}
                </TableCell>
                <TableCell>
                  <RequestStatusBadge status={request.status} />
                </TableCell>
                <TableCell>
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={request.status === "in_progress" || busyId === request._id}
                      onClick={() => setStatus(request, "in_progress")}
                    >
                      In Progress
                    </Button>
                    <Button
                      size="sm"
                      disabled={request.status === "completed" || busyId === request._id}
                      onClick={() => setStatus(request, "completed")}
                    >
                      Complete
                    </Button>
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
    </Card>
  );
}
