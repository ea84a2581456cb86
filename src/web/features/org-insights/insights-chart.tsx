/**
 * A bar per item (a course or a board) for one figure. The drawing is hidden from assistive
 * technology: its caption states what it shows and the highest and lowest values, and the
 * table beside it lists every figure, so nothing is only in the picture.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface ChartItem {
  name: string;
  value: number | null;
}

export function FigureBarChart({
  title,
  items,
  unit,
  max,
  color,
  describedBy,
}: {
  title: string;
  items: ChartItem[];
  /** '%' for rates and scores, '' for counts. */
  unit: string;
  /** A fixed top of the scale (100 for percentages); counts scale to their data. */
  max?: number;
  color: string;
  /** The id of the table that lists the same figures. */
  describedBy: string;
}) {
  const known = items.filter((i): i is { name: string; value: number } => i.value !== null);
  const sorted = [...known].sort((a, b) => b.value - a.value);
  const top = sorted[0];
  const bottom = sorted.at(-1);
  const show = (v: number) => `${v.toLocaleString('en-GB', { maximumFractionDigits: 1 })}${unit}`;
  const summary =
    known.length === 0
      ? 'No figures to draw yet.'
      : known.length === 1
        ? `${top!.name}: ${show(top!.value)}.`
        : top!.value === bottom!.value
          ? `All ${known.length} at ${show(top!.value)}.`
          : `Highest ${top!.name} (${show(top!.value)}), lowest ${bottom!.name} (${show(bottom!.value)}).`;
  const height = Math.max(120, known.length * 36 + 40);
  return (
    <figure className="m-0 grid gap-2" aria-describedby={describedBy}>
      <figcaption className="text-sm font-medium">
        {title} <span className="font-normal text-muted-foreground">{summary}</span>
      </figcaption>
      {/* Bars of zero length would draw an empty frame; the caption says it instead. */}
      {known.some((i) => i.value > 0) && (
        <div aria-hidden="true" style={{ height }} className="w-full">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={known}
              layout="vertical"
              margin={{ top: 4, right: 16, bottom: 4, left: 8 }}
              accessibilityLayer={false}
            >
              <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" horizontal={false} />
              <XAxis
                type="number"
                domain={[0, max ?? 'auto']}
                allowDecimals={unit !== ''}
                tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }}
                tickFormatter={(v: number) => `${v}${unit}`}
              />
              <YAxis
                type="category"
                dataKey="name"
                width={140}
                tick={{ fontSize: 12, fill: 'var(--foreground)' }}
                tickFormatter={(name: string) =>
                  name.length > 22 ? `${name.slice(0, 21)}…` : name
                }
              />
              <Tooltip formatter={(v) => show(Number(v))} />
              <Bar dataKey="value" name={title} fill={color} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}
