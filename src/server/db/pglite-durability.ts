/**
 * Flushing embedded commits to disk (`EMBEDDED_FSYNC=commit`, decision 0016).
 *
 * PGlite starts PostgreSQL with `-F` (fsync off), and even with fsync on nothing would reach
 * the disk: in its Emscripten build, `fdatasync()` is a no-op and the Node file system
 * (NODEFS) has no `fsync` operation, so `fsync()` does nothing either. A committed transaction
 * is then in the operating system's page cache only: it survives the process being killed, not
 * an OS crash or a power loss.
 *
 * WORKAROUND(pglite-fsync): we start PostgreSQL without `-F` and with
 * `wal_sync_method=fsync`, and give NODEFS the missing `fsync` operation (a real
 * `fs.fsyncSync` on the file's descriptor) before PostgreSQL starts. PostgreSQL then does what
 * it does on any server: flushes the WAL at each commit, and data files and directories at
 * checkpoints.
 */
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

export type EmbeddedFsync = 'commit' | 'off';

interface NodefsStream {
  nfd?: number;
}

interface EmscriptenModule {
  NODEFS: { stream_ops: { fsync?: (stream: NodefsStream) => number } };
}

/** NodeFS whose files can be flushed: `fsync()` inside PostgreSQL becomes `fs.fsyncSync`. */
class FlushingNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const flush = (mod: EmscriptenModule) => {
      mod.NODEFS.stream_ops.fsync = (stream) => {
        if (stream.nfd !== undefined) fs.fsyncSync(stream.nfd);
        return 0;
      };
    };
    const preRun = [...((emscriptenOpts.preRun as unknown[] | undefined) ?? []), flush];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } as typeof emscriptenOpts };
  }
}

/** PGlite's own start parameters without `-F`, with the WAL flushed by `fsync()`. */
function flushingStartParams(): string[] {
  const defaults = (PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams;
  return [...defaults.filter((param) => param !== '-F'), '-c', 'wal_sync_method=fsync'];
}

/** What `PGlite.create` needs for a data directory at `pgDir` under the chosen guarantee. */
export function durabilityOptions(
  pgDir: string,
  fsync: EmbeddedFsync,
): { fs?: NodeFS; startParams?: string[] } {
  if (fsync === 'off') return {};
  return { fs: new FlushingNodeFS(pgDir), startParams: flushingStartParams() };
}
