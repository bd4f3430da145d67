"use client";

import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatUsd } from "@/components/admin/format";

type Day = { date: string; revenue: number; sales: number };

const shortDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

export function RevenueChart({ days }: { days: Day[] }) {
  return (
    <div className="h-72 w-full" role="img" aria-label="Revenue per day over the last 30 days">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <defs>
            <linearGradient id="revenueFill" x1="0" y1="0" x2="0" y2="1">
              <stop offset="5%" stopColor="var(--color-primary)" stopOpacity={0.35} />
              <stop offset="95%" stopColor="var(--color-primary)" stopOpacity={0} />
            </linearGradient>
          </defs>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickFormatter={shortDate} tick={{ fontSize: 12 }} minTickGap={24} />
          <YAxis tickFormatter={(value: number) => `$${value}`} tick={{ fontSize: 12 }} width={56} />
          <Tooltip
            labelFormatter={(label) => shortDate(String(label))}
            formatter={(value, name) =>
              name === "revenue" ? [formatUsd(Number(value)), "Revenue"] : [String(value), "Sales"]
            }
          />
          <Area
            type="monotone"
            dataKey="revenue"
            stroke="var(--color-primary)"
            fill="url(#revenueFill)"
            strokeWidth={2}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
