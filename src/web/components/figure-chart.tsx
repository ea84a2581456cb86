/**
 * A bar or line per period (week, day) for one figure, shared by the progress and flashcard
 * statistics screens. The drawing is hidden from assistive technology: the
 * caption states the range and the table under it lists every figure.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';

export interface FigurePoint {
  label: string;
  value: number | null;
}

export function FigureChart({
  title,
  points,
  unit,
  kind = 'bar',
  max,
  columns,
  rows,
}: {
  title: string;
  points: FigurePoint[];
  unit: string;
  kind?: 'bar' | 'line';
  max?: number;
  /** The table's header and rows: every figure of the chart, and more detail. */
  columns: string[];
  rows: (string | number)[][];
}) {
  const known = points.filter((p): p is { label: string; value: number } => p.value !== null);
  const values = known.map((p) => p.value);
  const summary =
    known.length === 0
      ? 'Nothing recorded yet.'
      : `${known.length} ${known.length === 1 ? 'entry' : 'entries'}, from ${Math.min(...values)}${unit} to ${Math.max(...values)}${unit}.`;
  const axis = {
    tick: { fontSize: 12, fill: 'var(--muted-foreground)' },
  };
  return (
    <figure className="m-0 grid gap-3">
      <figcaption className="text-sm font-medium">
        {title} <span className="font-normal text-muted-foreground">{summary}</span>
      </figcaption>
      {known.some((p) => p.value > 0) && (
        <div aria-hidden="true" className="h-48 w-full">
          <ResponsiveContainer width="100%" height="100%">
            {kind === 'bar' ? (
              <BarChart
                data={known}
                margin={{ top: 4, right: 8, bottom: 4, left: 0 }}
                accessibilityLayer={false}
              >
                <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
                <XAxis dataKey="label" {...axis} />
                <YAxis domain={[0, max ?? 'auto']} width={36} allowDecimals={false} {...axis} />
                <Tooltip formatter={(v) => `${String(v)}${unit}`} />
                <Bar dataKey="value" name={title} fill="var(--chart-2)" isAnimationActive={false} />
              </BarChart>
            ) : (
              <LineChart
                data={known}
                margin={{ top: 4, right: 8, bottom: 4, left: 0 }}
                accessibilityLayer={false}
              >
                <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
                <XAxis dataKey="label" {...axis} />
                <YAxis domain={[0, max ?? 'auto']} width={36} {...axis} />
                <Tooltip formatter={(v) => `${String(v)}${unit}`} />
                <Line
                  dataKey="value"
                  name={title}
                  stroke="var(--chart-1)"
                  strokeWidth={2}
                  isAnimationActive={false}
                />
              </LineChart>
            )}
          </ResponsiveContainer>
        </div>
      )}
      {rows.length > 0 && (
        <div className="overflow-x-auto">
          <Table>
            <TableHeader>
              <TableRow>
                {columns.map((c) => (
                  <TableHead key={c}>{c}</TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row, i) => (
                <TableRow key={i}>
                  {row.map((cell, j) => (
                    <TableCell key={j}>{cell}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </figure>
  );
}
