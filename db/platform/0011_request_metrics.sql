-- Per-minute request counters per gateway service, flushed from memory every 10 s by each
-- gateway process. Counts are added (several processes share a row); the percentiles are
-- those of the process that flushed last. Read by the operations dashboards.
create table if not exists platform.request_metrics (
  minute timestamptz not null,
  service text not null,
  requests int not null default 0,
  errors int not null default 0,
  p50_ms real,
  p99_ms real,
  primary key (minute, service)
);
