// The real demo server (scripts/demo-server.mjs) for the browser tests, on a free port.
import { spawn } from 'node:child_process';
import path from 'node:path';

import { REPO } from '../crosscheck/engines.mjs';

const servers = [];

/** Stops every server started (a test file's `after`). */
export function stopDemoServers() {
  for (const server of servers.splice(0)) server.kill();
}

/** Starts a demo server with `flags` (e.g. --no-isolation); resolves with the URL it prints. */
export function startDemoServer(...flags) {
  const server = spawn(process.execPath, [path.join(REPO, 'scripts/demo-server.mjs'), '--port', '0', ...flags],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  servers.push(server);
  return new Promise((resolve, reject) => {
    let printed = '';
    server.stdout.on('data', (chunk) => {
      printed += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(printed);
      if (url) resolve(url[0]);
    });
    server.on('exit', (code) => reject(new Error(`the demo server exited with ${code}: ${printed}`)));
  });
}
