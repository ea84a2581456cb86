import pg from 'pg';

/**
 * The plans every statement `work` runs gets as `userId` (an authenticated caller), nested ones
 * included: auto_explain logs each, and client_min_messages hands those log lines to this
 * client as notices. Everything runs in a transaction that is rolled back.
 */
export async function explainAsUser(
  databaseUrl: string,
  userId: string,
  work: (client: pg.Client) => Promise<unknown>,
): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  const notices: string[] = [];
  client.on('notice', (notice) => notices.push(notice.message ?? ''));
  await client.connect();
  try {
    await client.query('begin');
    await client.query(`load 'auto_explain'`);
    for (const setting of [
      'auto_explain.log_min_duration = 0',
      'auto_explain.log_analyze = on',
      'auto_explain.log_buffers = on',
      'auto_explain.log_nested_statements = on',
      'client_min_messages = log',
    ]) {
      await client.query(`set local ${setting}`);
    }
    await client.query(
      `select set_config('role', 'authenticated', true),
              set_config('request.jwt.claims', $1, true)`,
      [JSON.stringify({ sub: userId, role: 'authenticated' })],
    );
    await work(client);
    await client.query('rollback');
  } finally {
    await client.end();
  }
  return notices.filter((n) => /Query Text/.test(n)).join('\n\n');
}
