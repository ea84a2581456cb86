/* global process, console */
/**
 * `npm run dev`: Vite with hot reload on http://localhost:5173 and the server, restarted on
 * every change, on http://localhost:3000. Vite forwards the server's paths, so the app in the
 * browser talks to the real backend.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'vite';

const SERVER_PORT = 3000;
const proxied = [
  '/health',
  '/client-config.json',
  '/auth',
  '/rest',
  '/storage',
  '/functions',
  // With its slash: '/api-access' and '/api-reference' are pages of the app.
  '/api/',
  '/_dev',
];

const server = spawn(process.execPath, ['--watch', '--import', 'tsx', 'src/server/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: String(SERVER_PORT) },
});

const vite = await createServer({
  configFile: 'vite.config.ts',
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      proxied.map((prefix) => [prefix, { target: `http://127.0.0.1:${SERVER_PORT}`, ws: true }]),
    ),
  },
});
await vite.listen();
vite.printUrls();
console.log(`  ➜  Server: http://localhost:${SERVER_PORT} (restarts on change)`);

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  await vite.close();
  process.exit(code);
}

process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
server.on('exit', (code, signal) => {
  if (stopping) return;
  console.error(`The server stopped (${signal ?? `exit code ${code}`}); stopping Vite too.`);
  void stop(code ?? 1);
});
