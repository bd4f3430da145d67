"use client";

import { useId, useRef, useState, type DragEvent } from "react";
import { FileTextIcon, UploadCloudIcon, XIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { cn } from "@/lib/utils";
import { refusalMessage, screenFiles } from "@/components/custom-request/screen-files";
import { ACCEPTED_EXTENSIONS, MAX_FILES } from "@/lib/schemas/custom-request";

const ACCEPT = ACCEPTED_EXTENSIONS.map((extension) => `.${extension}`).join(",");

export const formatKilobytes = (size: number) => `${(size / 1024).toFixed(1)} KB`;

type AttachmentsFieldProps = {
  files: File[];
  onChange: (files: File[]) => void;
};

function announceAdded(count: number) {
  toast({ title: "Files added", description: `${count} file(s) successfully added.` });
}

/** 'Attachments (Optional)': a drop area, a picker and the list of chosen files. */
export function AttachmentsField({ files, onChange }: AttachmentsFieldProps) {
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const hintId = useId();

  // By design: dropped files are type-checked here; picked files are not (the server checks all).
  // Both refuse files over 10 MB and beyond the fifth before anything is sent.
  const add = (incoming: File[], checkType: boolean) => {
    if (incoming.length === 0) return;
    const screened = screenFiles(files.length, incoming, checkType);
    if (screened.accepted.length > 0) {
      onChange([...files, ...screened.accepted]);
      announceAdded(screened.accepted.length);
    }
    // Shown last: with one toast at a time, the refusal must not be hidden by 'Files added'.
    const refusal = refusalMessage(screened);
    if (refusal) toast({ ...refusal, variant: "destructive" });
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    add(Array.from(event.dataTransfer.files), true);
  };

  const onDragLeave = (event: DragEvent<HTMLDivElement>) => {
    // Moving over a child of the drop area is not leaving it.
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    setDragging(false);
  };

  const onPick = (event: React.ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    // Cleared so that choosing the same file again still fires a change.
    event.target.value = "";
    add(picked, false);
  };

  return (
    <div className="grid gap-2">
      <span id={labelId} className="text-sm leading-none font-medium">
        Attachments (Optional)
      </span>
      <div
        role="group"
        aria-labelledby={labelId}
        aria-describedby={hintId}
        data-testid="attachments-drop-area"
        data-dragging={dragging ? "true" : "false"}
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          if (!dragging) setDragging(true);
        }}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
        className={cn(
          "flex flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-6 text-center transition-colors",
          dragging ? "border-primary bg-primary/5" : "border-input",
        )}
      >
        <UploadCloudIcon
          className={cn("size-8", dragging ? "text-primary" : "text-muted-foreground")}
          aria-hidden="true"
        />
        <p className="text-sm">
          {dragging ? "Drop the files here" : "Drag and drop files here, or"}{" "}
          {!dragging && (
            <Button
              variant="link"
              className="h-auto p-0 align-baseline"
              onClick={() => inputRef.current?.click()}
            >
              browse your computer
            </Button>
          )}
        </p>
        <p id={hintId} className="text-xs text-muted-foreground">
          PDF, Word, CSV or Excel · up to {MAX_FILES} files, 10 MB each
        </p>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={ACCEPT}
          onChange={onPick}
          className="sr-only"
          tabIndex={-1}
          aria-label="Choose files to attach"
          data-testid="attachments-input"
        />
      </div>
      {files.length > 0 && (
        <ul className="grid gap-2" aria-label="Attached files">
          {files.map((file, index) => (
            <li
              key={`${file.name}-${file.size}-${file.lastModified}-${index}`}
              className="flex items-center gap-2 rounded-md border bg-background px-3 py-2 text-sm"
            >
              <FileTextIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <span className="max-w-[200px] truncate" title={file.name} data-testid="attachment-name">
                {file.name}
              </span>
              <span className="text-xs text-muted-foreground" data-testid="attachment-size">
                {formatKilobytes(file.size)}
              </span>
              <Button
                variant="ghost"
                size="icon"
                className="ml-auto size-7"
                aria-label={`Remove ${file.name}`}
                onClick={() => onChange(files.filter((_, position) => position !== index))}
              >
                <XIcon aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
