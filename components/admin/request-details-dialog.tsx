"use client";

import { Download, Paperclip } from "lucide-react";
import {
  formatDateTime,
  formatKilobytes,
  industryLabel,
  platformLabels,
  roleLabel,
} from "@/components/admin/format";
import { RequestStatusActions, type SettableStatus } from "@/components/admin/request-status-actions";
import { RequestStatusBadge } from "@/components/admin/status-badge";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import type { RequestDto } from "@/lib/schemas/admin";

/** One request in full: the whole message, role, every attachment by its full name, status actions. */
export function RequestDetailsDialog({
  request,
  busy,
  onClose,
  onSetStatus,
  onDownload,
}: {
  request: RequestDto | undefined;
  busy: boolean;
  onClose: () => void;
  onSetStatus: (request: RequestDto, status: SettableStatus) => void;
  onDownload: (url: string, name: string) => void;
}) {
  return (
    <Dialog open={request !== undefined} onOpenChange={(open) => !open && onClose()}>
      {request && (
        <DialogContent className="sm:max-w-2xl">
          <DialogHeader>
            <DialogTitle className="pr-6 break-words">Request from {request.name}</DialogTitle>
            <DialogDescription>Received {formatDateTime(request.createdAt)}</DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-muted-foreground">Status</dt>
            <dd>
              <RequestStatusBadge status={request.status} />
            </dd>
            <dt className="text-muted-foreground">Email</dt>
            <dd className="break-all">
              <a className="text-primary underline-offset-4 hover:underline" href={`mailto:${request.email}`}>
                {request.email}
              </a>
            </dd>
            <dt className="text-muted-foreground">Industry</dt>
            <dd>{industryLabel(request.industry)}</dd>
            <dt className="text-muted-foreground">Role</dt>
            <dd>{roleLabel(request.role)}</dd>
            <dt className="text-muted-foreground">Platforms</dt>
            <dd>{platformLabels(request.platform) || "None chosen"}</dd>
            <dt className="text-muted-foreground">Message</dt>
            <dd className="break-words whitespace-pre-wrap" data-testid="request-message">
              {request.message || <span className="text-muted-foreground">No message</span>}
            </dd>
            <dt className="text-muted-foreground">Attachments</dt>
            <dd>
              {request.attachments.length === 0 ? (
                <span className="text-muted-foreground">None</span>
              ) : (
                <ul className="space-y-1.5" aria-label="Attachments">
                  {request.attachments.map((file) => (
                    <li key={file._id} className="flex items-start gap-2">
                      <Paperclip
                        className="mt-1 size-3.5 shrink-0 text-muted-foreground"
                        aria-hidden="true"
                      />
                      <span className="min-w-0 flex-1 break-all">
                        {file.fileName}{" "}
                        <span className="text-muted-foreground">({formatKilobytes(file.size)})</span>
                      </span>
                      <Button
                        size="sm"
                        variant="outline"
                        aria-label={`Download ${file.fileName}`}
                        onClick={() =>
                          onDownload(
                            `/api/admin/requests/${request._id}/attachments/${file._id}`,
                            file.fileName,
                          )
                        }
                      >
                        <Download />
                        Download
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
          <DialogFooter>
            <RequestStatusActions request={request} busy={busy} onSet={onSetStatus} />
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}
