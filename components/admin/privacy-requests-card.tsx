"use client";

import { formatDateTime } from "@/components/admin/format";
import { TableStateRows } from "@/components/admin/table-state-rows";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useAdminPrivacyRequests } from "@/lib/client/use-admin";
import type { PrivacyRequestDto } from "@/lib/schemas/privacy";

const KIND_LABELS: Record<PrivacyRequestDto["kind"], string> = { access: "Access", erasure: "Erasure" };
const STATE_LABELS: Record<PrivacyRequestDto["state"], string> = {
  pending: "Awaiting confirmation",
  completed: "Completed",
  expired: "Expired (not confirmed)",
};

/** GDPR requests: the person confirms by mail and the app runs them; the admin only watches. */
export function PrivacyRequestsCard({ autoRefresh }: { autoRefresh: number | false }) {
  const requests = useAdminPrivacyRequests({ refetchInterval: autoRefresh });
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Privacy Requests</h2>
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          Access and erasure requests run on their own once the person confirms by mail. Emails are shown
          masked; an erased person&apos;s address is not kept.
        </p>
      </CardHeader>
      <CardContent className="px-3 md:px-4">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Requested</TableHead>
              <TableHead>Kind</TableHead>
              <TableHead>Email</TableHead>
              <TableHead>State</TableHead>
              <TableHead>Confirmed</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {requests.data?.map((request) => (
              <TableRow key={request._id} data-privacy-request-id={request._id}>
                <TableCell>{formatDateTime(request.createdAt)}</TableCell>
                <TableCell>{KIND_LABELS[request.kind]}</TableCell>
                <TableCell className="font-mono text-xs">{request.maskedEmail}</TableCell>
                <TableCell>
                  <Badge variant={request.state === "completed" ? "default" : "secondary"}>
                    {STATE_LABELS[request.state]}
                  </Badge>
                </TableCell>
                <TableCell>{request.confirmedAt ? formatDateTime(request.confirmedAt) : "-"}</TableCell>
              </TableRow>
            ))}
            <TableStateRows
              columns={5}
              loading={requests.isLoading}
              empty={requests.data?.length === 0}
              loadingLabel="Loading privacy requests"
              emptyText="No privacy requests yet"
            />
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
