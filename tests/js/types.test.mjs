// The TypeScript declarations: tests/js/types/usage.ts type-checks against them (including
// its @ts-expect-error misuses, which must be errors).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

it('the declarations type-check the documented usage and reject misuse', () => {
  const usage = fileURLToPath(new URL('types/usage.ts', import.meta.url));
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext',
    '--moduleResolution', 'nodenext', '--types', 'node', usage], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
