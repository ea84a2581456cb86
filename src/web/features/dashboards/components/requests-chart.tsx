import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatClock } from '../lib/format';

export interface RequestPoint {
  minute: string;
  requests: number;
  errors: number;
}

const shortTime = (iso: string) => formatClock(iso).slice(0, 5);

/**
 * Requests per minute over the last hour. The drawing is hidden from assistive technology;
 * the same figures are in the visually hidden table, and errors differ from requests by a
 * dashed line and a legend label, not by colour alone.
 */
export default function RequestsChart({ points }: { points: RequestPoint[] }) {
  const total = points.reduce((sum, p) => sum + p.requests, 0);
  const errors = points.reduce((sum, p) => sum + p.errors, 0);
  const peak = points.reduce((max, p) => Math.max(max, p.requests), 0);
  return (
    <figure className="m-0 flex flex-col gap-2">
      <figcaption className="text-sm font-medium">
        Requests per minute, last hour{' '}
        <span className="font-normal text-muted-foreground">
          ({total.toLocaleString('en-US')} requests, peak {peak.toLocaleString('en-US')}/min,{' '}
          {errors.toLocaleString('en-US')} errors)
        </span>
      </figcaption>
      <div className="h-44 w-full sm:h-52" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart
            data={points}
            margin={{ top: 8, right: 12, bottom: 0, left: -12 }}
            accessibilityLayer={false}
          >
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis
              dataKey="minute"
              tickFormatter={shortTime}
              minTickGap={32}
              tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }}
            />
            <YAxis
              allowDecimals={false}
              width={48}
              tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }}
            />
            <Tooltip labelFormatter={(label) => shortTime(String(label))} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Line
              type="monotone"
              dataKey="requests"
              name="Requests"
              stroke="var(--chart-2)"
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
            <Line
              type="monotone"
              dataKey="errors"
              name="Errors (dashed)"
              stroke="var(--destructive)"
              strokeWidth={2}
              strokeDasharray="5 4"
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      {/* A table ignores width: 1px, so the wrapper, not the table, is visually hidden. */}
      <div className="sr-only">
        <table>
          <caption>Requests and errors per minute over the last hour</caption>
          <thead>
            <tr>
              <th scope="col">Minute</th>
              <th scope="col">Requests</th>
              <th scope="col">Errors</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.minute}>
                <th scope="row">{shortTime(p.minute)}</th>
                <td>{p.requests}</td>
                <td>{p.errors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
