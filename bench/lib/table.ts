/**
 * Prints benchmark results as one table: each case on each database, its baselines beside the
 * gateway, and the ratio gateway / bare route (the cost of our service layer).
 */
import os from 'node:os';
import type { Measurement } from './measure';

export interface BenchRow {
  /** e.g. "(b) select 20 rows" */
  scenario: string;
  database: 'pglite' | 'postgres';
  /** "adapter" (no HTTP), "bare route" (HTTP, no service layer) or "gateway". */
  path: string;
  result: Measurement;
  /**
   * Server CPU per request, in microseconds: this process (HTTP servers, the gateway, PGlite)
   * and, on PostgreSQL, the cluster's processes. The load generator's own CPU is not in it.
   */
  cpu?: { processMicros: number; databaseMicros?: number };
}

function fixed(value: number, digits: number): string {
  return value.toFixed(digits);
}

/** Ratio of the gateway's throughput to the bare route's, for each scenario and database. */
export function gatewayRatios(rows: BenchRow[]): Map<string, number> {
  const ratios = new Map<string, number>();
  for (const row of rows) {
    if (row.path !== 'gateway') continue;
    const bare = rows.find(
      (r) => r.path === 'bare route' && r.scenario === row.scenario && r.database === row.database,
    );
    if (bare && bare.result.requestsPerSecond > 0) {
      ratios.set(
        `${row.scenario}|${row.database}`,
        row.result.requestsPerSecond / bare.result.requestsPerSecond,
      );
    }
  }
  return ratios;
}

export function formatTable(rows: BenchRow[]): string {
  const ratios = gatewayRatios(rows);
  const withCpu = rows.some((row) => row.cpu);
  const header = [
    'scenario',
    'database',
    'path',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'gateway/bare',
    ...(withCpu ? ['node µs/req', 'db µs/req'] : []),
  ];
  const body = rows.map((row) => [
    row.scenario,
    row.database,
    row.path,
    fixed(row.result.requestsPerSecond, 0),
    fixed(row.result.p50Ms, 2),
    fixed(row.result.p99Ms, 2),
    String(row.result.errors),
    row.path === 'gateway'
      ? fixed(ratios.get(`${row.scenario}|${row.database}`) ?? Number.NaN, 2)
      : '',
    ...(withCpu
      ? [
          row.cpu ? fixed(row.cpu.processMicros, 0) : '',
          row.cpu?.databaseMicros === undefined ? '' : fixed(row.cpu.databaseMicros, 0),
        ]
      : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => (i >= 3 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i >= 3 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
    ...body.map(line),
  ].join('\n');
}

/** What a load bench prints: how it ran (the machine's CPUs matter to the figures), then the table. */
export function formatReport(
  title: string,
  run: { connections: number; seconds: number },
  rows: BenchRow[],
): string {
  return `${title}: ${run.connections} concurrent clients, ${run.seconds} s per case (${os.cpus().length} CPUs)\n\n${formatTable(rows)}`;
}
