// The converter's op contract matches docs/model-format.md: the same operators, and only
// attributes the operator table names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';

import { supportedOps } from 'tessera/convert';

import { kEngineOps } from '../../wasm/js/convert/ops.js';

// Operator table rows: [[op names], notes text].
function operatorTable() {
  const text = readFileSync(new URL('../../docs/model-format.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('## Operators'), text.indexOf('\n## ', text.indexOf('## Operators') + 1));
  return section.split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| op ') && !line.startsWith('| ---'))
    .map((line) => {
      const [, ops, notes] = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
      // "LeakyRelu (`alpha`), Sigmoid": op names lead each comma-separated part.
      const names = ops.replace(/\([^)]*\)/g, '').split(',').map((part) => part.trim().split(' ')[0]).filter(Boolean);
      return [names, `${ops} ${notes}`];
    });
}

it('supports exactly the operators of docs/model-format.md', () => {
  const documented = operatorTable().flatMap(([names]) => names).sort();
  assert.deepEqual([...supportedOps].sort(), documented);
});

it('emits only attributes the operator table names for each op', () => {
  const rows = operatorTable();
  const notesOf = (op) => rows.find(([names]) => names.includes(op))[1];
  for (const [op, spec] of Object.entries(kEngineOps)) {
    // "ReduceSum, ...: like ReduceMean" borrows ReduceMean's attributes.
    const notes = notesOf(op).includes('like ReduceMean') ? notesOf('ReduceMean') : notesOf(op);
    for (const attr of Object.keys(spec.attrs ?? {})) {
      assert.ok(notes.includes(`\`${attr}\``), `${op}.${attr} is not in the operator table`);
    }
  }
});
