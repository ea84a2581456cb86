/**
 * LE Adapt pipeline benchmark (issue 14, decision 0501): the real job, offline engines only,
 * on the embedded database, where the queue's worker runs in this process as it does in
 * `npm start`. For the project's 50-page PDF and 20-SCO SCORM 1.2 package (made by
 * tests/support/adapt-documents.ts, nothing downloaded), uploaded through
 * /functions/v1/adapt/jobs, it prints:
 *   - extraction speed: the PDF's pages per second in stage 1 (the stage's own duration),
 *   - each stage's duration and the end-to-end time from upload to the fourth stage done,
 *   - the worker's peak memory: the process's resident set, sampled every 20 ms during the
 *     job, and its rise over the idle process before the upload.
 * MP3 seconds of audio per CPU second are measured by bench/adapt-audio-bench.ts. The issue
 * sets no figures to meet, so nothing here fails for being slow; the exit code is non-zero
 * only when a job does not finish.
 *
 *   node --import tsx bench/adapt-pipeline-bench.ts [rounds]
 */
import { createClient } from '@supabase/supabase-js';
import { fiftyPagePdf, scormPackage } from '../tests/support/adapt-documents';
import { startBenchServer } from './lib/bench-server';
import { RealtimeUnused } from './lib/web-client';

const ROUNDS = Number(process.argv[2] ?? 1);
const PASSWORD = 'bench-password-not-secret';

type StageRow = {
  stage: number;
  name: string;
  status: string;
  error: string | null;
  duration_ms: number | null;
};

// WORKAROUND(node20-websocket): realtime-js refuses to construct without a WebSocket.
globalThis.WebSocket ??= RealtimeUnused as never;

const bench = await startBenchServer('pglite', undefined, 'adapt-pipeline');
const { server } = bench;
try {
  const service = createClient(server.url, server.deps.keys.serviceRoleKey, {
    auth: { persistSession: false },
  });
  const email = `adapt-bench.${Date.now().toString(36)}@example.com`;
  const created = await service.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  if (created.error) throw new Error(created.error.message);
  const client = createClient(server.url, server.deps.keys.anonKey, {
    auth: { persistSession: false },
  });
  const signIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (signIn.error) throw new Error(signIn.error.message);
  const token = signIn.data.session.access_token;

  const documents: Array<{ label: string; name: string; bytes: Uint8Array; pages?: number }> = [
    { label: '50-page PDF', name: 'fifty-pages.pdf', bytes: await fiftyPagePdf(), pages: 50 },
    {
      label: '20-SCO SCORM 1.2 package',
      name: 'twenty-scos.zip',
      bytes: scormPackage({ version: '1.2', scos: 20 }),
    },
  ];

  console.log(`LE Adapt pipeline, offline engines, PGlite in this process, ${ROUNDS} round(s)`);
  for (const document of documents) {
    for (let round = 1; round <= ROUNDS; round++) {
      global.gc?.();
      const idle = process.memoryUsage().rss;
      let peak = idle;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const started = performance.now();
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(document.bytes)]), document.name);
      form.append('readingLevel', '8');
      form.append('learnerProfile', 'adhd');
      form.append('language', 'en');
      const response = await fetch(`${server.url}/functions/v1/adapt/jobs`, {
        method: 'POST',
        headers: { apikey: server.deps.keys.anonKey, Authorization: `Bearer ${token}` },
        body: form,
      });
      const job = (await response.json()) as { id?: string; error?: string };
      if (!response.ok || !job.id) throw new Error(`upload refused: ${job.error}`);
      let status = 'queued';
      while (status === 'queued' || status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const { rows } = await server.deps.db.query<{ status: string }>(
          'select status from public.adapt_jobs where id = $1',
          [job.id],
        );
        status = rows[0]!.status;
      }
      const endToEnd = performance.now() - started;
      clearInterval(sampler);
      const { rows: stages } = await server.deps.db.query<StageRow>(
        'select stage, name, status, error, duration_ms from public.adapt_job_stages where job_id = $1 order by stage',
        [job.id],
      );
      if (status !== 'done') {
        const failed = stages.find((s) => s.status === 'failed');
        throw new Error(`${document.label}: the job ${status}: ${failed?.error ?? 'no reason'}`);
      }
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
      console.log(
        `\n${document.label} (${(document.bytes.length / 1024).toFixed(0)} KB), round ${round}`,
      );
      for (const stage of stages) {
        console.log(
          `  stage ${stage.stage} ${stage.name.padEnd(10)} ${(stage.duration_ms! / 1000).toFixed(2)} s`,
        );
      }
      if (document.pages) {
        const extract = stages[0]!.duration_ms! / 1000;
        console.log(`  extraction: ${(document.pages / extract).toFixed(1)} pages per second`);
      }
      console.log(`  end to end (upload to stage 4 done): ${(endToEnd / 1000).toFixed(2)} s`);
      console.log(`  worker peak resident memory: ${mb(peak)} (${mb(peak - idle)} above idle)`);
    }
  }
} finally {
  await bench.close();
}
