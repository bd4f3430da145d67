"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { HttpError } from "@/lib/client/fetcher";
import { useCreateCategory, useDeleteCategory, useUpdateCategory } from "@/lib/client/use-admin";
import { categoryCreateSchema } from "@/lib/schemas/admin";
import { fieldErrors } from "@/lib/schemas/common";
import type { CategoryDto } from "@/lib/schemas/category";

type Props = { open: boolean; onOpenChange: (open: boolean) => void; category?: CategoryDto };

/** Add Category (no `category`) or Edit (with one); the form resets each time it opens. */
export function CategoryDialog(props: Props) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent>
        {props.open && <CategoryForm key={props.category?._id ?? "new"} {...props} />}
      </DialogContent>
    </Dialog>
  );
}

function CategoryForm({ onOpenChange, category }: Props) {
  const [title, setTitle] = useState(category?.title ?? "");
  const [description, setDescription] = useState(category?.description ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateCategory();
  const update = useUpdateCategory();
  const remove = useDeleteCategory();
  const busy = create.isPending || update.isPending || remove.isPending;

  const failed = (error: unknown, fallback: string) => {
    const message = (error instanceof HttpError && error.serverMessage) || fallback;
    toast({ title: "Error", description: message, variant: "destructive" });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = categoryCreateSchema.safeParse({ title, description });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    const done = (message: string) => () => {
      toast({ title: message, description: parsed.data.title });
      onOpenChange(false);
    };
    if (category) {
      update.mutate(
        { id: category._id, title: parsed.data.title, description: parsed.data.description ?? "" },
        {
          onSuccess: done("Category updated"),
          onError: (error) => failed(error, "Failed to update the category"),
        },
      );
    } else {
      create.mutate(parsed.data, {
        onSuccess: done("Category created"),
        onError: (error) => failed(error, "Failed to create the category"),
      });
    }
  };

  const onDelete = () => {
    if (!category) return;
    if (!window.confirm(`Delete "${category.title}" and its ${category.count} leads? This cannot be undone.`))
      return;
    remove.mutate(category._id, {
      onSuccess: () => {
        toast({ title: "Category deleted", description: category.title });
        onOpenChange(false);
      },
      onError: (error) => failed(error, "Failed to delete the category"),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{category ? "Edit Category" : "Add Category"}</DialogTitle>
        <DialogDescription>
          {category
            ? "Change how this category is shown to buyers."
            : "A new, empty category; import leads into it next."}
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="category-title">Title</Label>
        <Input
          id="category-title"
          value={title}
          maxLength={120}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={errors.title ? "category-title-error" : undefined}
          onChange={(event) => setTitle(event.target.value)}
        />
        {errors.title && (
          <p id="category-title-error" className="text-sm text-destructive">
            {errors.title}
          </p>
        )}
      </div>
      <div className="grid gap-2">
        <Label htmlFor="category-description">Description</Label>
        <Textarea
          id="category-description"
          rows={3}
          value={description}
          maxLength={2000}
          aria-invalid={errors.description ? true : undefined}
          onChange={(event) => setDescription(event.target.value)}
        />
        {errors.description && <p className="text-sm text-destructive">{errors.description}</p>}
      </div>
      <DialogFooter className="sm:justify-between">
        {category ? (
          <Button type="button" variant="destructive" onClick={onDelete} disabled={busy}>
            Delete
          </Button>
        ) : (
          <span />
        )}
        <div className="flex gap-2">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {(create.isPending || update.isPending) && <Spinner size="sm" label="Saving" />}
            {category ? "Save Changes" : "Create Category"}
          </Button>
        </div>
      </DialogFooter>
    </form>
  );
}
