import { DashboardShell } from "@/components/admin/dashboard-shell";

export default function AdminDashboardPage() {
  return <DashboardShell />;
}
