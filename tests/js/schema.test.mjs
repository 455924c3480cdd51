// The operator schema (wasm/js/convert/op_schema.js) ties the engine's op list, the
// converter, the exporter and docs/model-format.md together: each must agree with it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { supportedOps } from 'tessera/convert';

import {
  documentedTable, kDocPath, kSchemaPath, operatorTable, schemaFromText,
} from '../../scripts/op-docs.mjs';
import { kAttributeInputTensors, kAttributeWriters } from '../../wasm/js/convert/export.js';
import schema from '../../wasm/js/convert/op_schema.js';
import { hasShapeFunction } from '../../wasm/js/convert/shape_inference.js';

const kFields = new Set(['doc', 'since', 'attrs', 'values', 'drop', 'shape_inputs', 'constant_inputs', 'attr_inputs', 'outputs']);
const kKinds = new Set(['int', 'float', 'string', 'ints', 'floats', 'tensor']);
const entries = Object.entries(schema.ops);

// The ONNX op types core/ops/op_list.inc registers with the engine.
function engineOpList() {
  const text = readFileSync(new URL('../../core/ops/op_list.inc', import.meta.url), 'utf8');
  return [...text.matchAll(/^TESSERA_ONNX_OP\((\w+),/gm)].map((m) => m[1]);
}

describe('op_schema.js', () => {
  it('is strict JSON after "export default ", as non-JS readers parse it', () => {
    assert.deepEqual(schemaFromText(readFileSync(kSchemaPath, 'utf8')), schema);
    assert.deepEqual(Object.keys(schema), ['ops']);
  });

  it('has well-formed entries', () => {
    for (const [op, entry] of entries) {
      const where = `schema op ${op}`;
      for (const field of Object.keys(entry)) assert.ok(kFields.has(field), `${where}: unknown field "${field}"`);
      assert.equal(typeof entry.doc, 'string', `${where}: doc must be a string`);
      const attrs = entry.attrs ?? {};
      for (const [name, kind] of Object.entries(attrs)) assert.ok(kKinds.has(kind), `${where}: attribute ${name} has unknown kind "${kind}"`);
      for (const [name, values] of Object.entries(entry.values ?? {})) {
        assert.ok(Object.hasOwn(attrs, name), `${where}: values of "${name}", which is not an attribute`);
        assert.ok(Array.isArray(values) && values.length > 0, `${where}: values of "${name}" must be a non-empty list`);
      }
      for (const [name, rule] of Object.entries(entry.drop ?? {})) {
        assert.ok(!Object.hasOwn(attrs, name), `${where}: "${name}" is both an attribute and dropped`);
        assert.ok(rule === 'any' || (Array.isArray(rule) && rule.length > 0), `${where}: drop rule of "${name}" must be "any" or a list of values`);
      }
      for (const field of ['shape_inputs', 'constant_inputs']) {
        const indices = entry[field] ?? [];
        if (Object.hasOwn(entry, field)) assert.ok(Array.isArray(indices) && indices.length > 0, `${where}: ${field} must be a non-empty list`);
        for (const i of indices) assert.ok(Number.isInteger(i) && i >= 0, `${where}: ${field} index ${i}`);
        assert.equal(new Set(indices).size, indices.length, `${where}: ${field} repeats an index`);
      }
      // An input is either shape-like (known at specialisation) or a constant the op reads, not both.
      const both = (entry.constant_inputs ?? []).filter((i) => (entry.shape_inputs ?? []).includes(i));
      assert.deepEqual(both, [], `${where}: inputs ${both.join(', ')} are both shape_inputs and constant_inputs`);
      for (const [name, i] of Object.entries(entry.attr_inputs ?? {})) {
        assert.ok(Object.hasOwn(attrs, name), `${where}: attr_inputs names "${name}", which is not an attribute`);
        assert.ok(Number.isInteger(i) && i > 0, `${where}: attr_inputs input index ${i}`);
        // An attribute's value is a constant, so the input that replaces it must be one too.
        const known = [...(entry.shape_inputs ?? []), ...(entry.constant_inputs ?? [])];
        assert.ok(known.includes(i), `${where}: attr_inputs input ${i} is in neither shape_inputs nor constant_inputs`);
      }
      assert.ok([1, 2].includes(entry.since ?? 1), `${where}: since ${entry.since}`);
      const outputs = entry.outputs ?? 1;
      assert.ok(outputs === 'variadic' || (Number.isInteger(outputs) && outputs >= 1), `${where}: outputs ${outputs}`);
    }
  });

  it('lists exactly the ops the converter supports', () => {
    assert.deepEqual([...supportedOps], Object.keys(schema.ops));
  });
});

describe('the engine, converter, exporter and docs agree with the schema', () => {
  const registered = engineOpList();
  const unregistered = (since) => Object.keys(schema.ops).filter((op) => (schema.ops[op].since ?? 1) === since && !registered.includes(op));

  it('every op core/ops/op_list.inc registers is in the schema', () => {
    const missing = registered.filter((op) => !Object.hasOwn(schema.ops, op));
    assert.deepEqual(missing, [], `ops in core/ops/op_list.inc missing from the schema: ${missing.join(', ')}`);
  });

  it('core/ops/op_list.inc registers every op of the schema', () => {
    const missing = [...unregistered(1), ...unregistered(2)];
    assert.deepEqual(missing, [], `schema ops core/ops/op_list.inc does not register: ${missing.join(', ')}`);
  });

  it('docs/model-format.md holds the operator table the schema generates', () => {
    const documented = documentedTable(readFileSync(kDocPath, 'utf8'));
    assert.ok(documented !== null, 'docs/model-format.md lacks the operator table markers');
    assert.equal(documented, operatorTable(schema), 'the operator table is stale: run node scripts/op-docs.mjs');
  });

  it('the operator table names every attribute of each op', () => {
    const table = operatorTable(schema).split('\n');
    const rowOf = (op) => table.find((line) => line.split(' | ')[0].replace(/\([^)]*\)/g, '').split(/[|,]/).map((s) => s.trim()).includes(op));
    for (const [op, entry] of entries) {
      // "ReduceSum, ...: like ReduceMean" borrows ReduceMean's notes.
      const like = entry.doc.match(/^like (\w+)$/)?.[1];
      const text = like ? `${rowOf(op)} ${rowOf(like)}` : rowOf(op);
      for (const attr of Object.keys(entry.attrs ?? {})) {
        assert.ok(text.includes(`\`${attr}\``), `${op}.${attr} is not named in the operator table`);
      }
    }
  });

  it('shape_inference.js has a shape function for every op', () => {
    const missing = Object.keys(schema.ops).filter((op) => !hasShapeFunction(op));
    assert.deepEqual(missing, [], `ops without a shape function: ${missing.join(', ')}`);
  });

  it('export.js writes every attribute kind, and the inputs that replace attributes', () => {
    for (const [op, entry] of entries) {
      for (const [name, kind] of Object.entries(entry.attrs ?? {})) {
        assert.ok(Object.hasOwn(kAttributeWriters, kind), `${op}.${name}: the exporter cannot write a "${kind}" attribute`);
      }
      for (const name of Object.keys(entry.attr_inputs ?? {})) {
        const kind = entry.attrs[name];
        assert.ok(Object.hasOwn(kAttributeInputTensors, kind), `${op}.${name}: the exporter cannot turn a "${kind}" attribute into an input`);
      }
    }
  });
});
