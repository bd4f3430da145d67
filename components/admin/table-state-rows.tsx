import { Spinner } from "@/components/ui/spinner";
import { TableCell, TableRow } from "@/components/ui/table";

/** The full-width row an admin table shows while loading, or when it has nothing to list. */
export function TableStateRows({
  columns,
  loading,
  empty,
  loadingLabel,
  emptyText,
}: {
  columns: number;
  loading: boolean;
  empty: boolean;
  loadingLabel: string;
  emptyText: string;
}) {
  if (loading) {
    return (
      <TableRow>
        <TableCell colSpan={columns} className="py-8 text-center">
          <Spinner label={loadingLabel} />
        </TableCell>
      </TableRow>
    );
  }
  if (!empty) return null;
  return (
    <TableRow>
      <TableCell colSpan={columns} className="py-8 text-center text-muted-foreground">
        {emptyText}
      </TableCell>
    </TableRow>
  );
}
