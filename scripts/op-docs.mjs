// Writes the operator table of docs/model-format.md from the operator schema
// (wasm/js/convert/op_schema.js), between its two marker comments:
//
//   node scripts/op-docs.mjs            rewrite the table
//   node scripts/op-docs.mjs --check    exit 1 when the table differs from the schema
//
// tests/js/schema.test.mjs imports these functions to check the same thing.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const kSchemaPath = fileURLToPath(new URL('../wasm/js/convert/op_schema.js', import.meta.url));
export const kDocPath = fileURLToPath(new URL('../docs/model-format.md', import.meta.url));
export const kBegin = '<!-- operator table: generated from wasm/js/convert/op_schema.js by `node scripts/op-docs.mjs` -->';
export const kEnd = '<!-- end of the generated operator table -->';
const kPrefix = 'export default ';

/**
 * The schema from the text of op_schema.js, read the way a non-JS reader (the C++ engine)
 * reads it: the JSON is everything after "export default " up to the final ";".
 */
export function schemaFromText(text) {
  const at = text.indexOf(`\n${kPrefix}`);
  if (at < 0) throw new Error(`op_schema.js has no line starting with "${kPrefix}"`);
  const body = text.slice(at + 1 + kPrefix.length).trimEnd();
  if (!body.endsWith(';')) throw new Error('op_schema.js must end with "};"');
  return JSON.parse(body.slice(0, -1));
}

const code = (text) => `\`${text}\``;

// An op's name in a row of several ops: with the attributes that the row's notes do not name
// and that not every op of the row has, and their supported values ("Gelu (`approximate`: `none`/`tanh`)").
function rowLabel(op, entry, row) {
  if (row.ops.length === 1) return op;
  const extra = Object.keys(entry.attrs ?? {}).filter((attr) =>
    !row.doc.includes(code(attr)) && !row.ops.every(([, other]) => Object.hasOwn(other.attrs ?? {}, attr)));
  if (extra.length === 0) return op;
  const described = extra.map((attr) => {
    const values = entry.values?.[attr];
    return values ? `${code(attr)}: ${values.map(code).join('/')}` : code(attr);
  });
  return `${op} (${described.join(', ')})`;
}

/**
 * The operator table (markdown) for `schema`: consecutive ops with the same doc share a row;
 * then the ops format version 2 added.
 */
export function operatorTable(schema) {
  const rows = [];
  for (const [op, entry] of Object.entries(schema.ops)) {
    const last = rows.at(-1);
    if (last && last.doc === entry.doc) last.ops.push([op, entry]);
    else rows.push({ doc: entry.doc, ops: [[op, entry]] });
  }
  const lines = ['| op | notes |', '| --- | --- |'];
  for (const row of rows) {
    const ops = row.ops.map(([op, entry]) => rowLabel(op, entry, row)).join(', ');
    lines.push(row.doc ? `| ${ops} | ${row.doc} |` : `| ${ops} | |`);
  }
  const added = Object.entries(schema.ops).filter(([, entry]) => (entry.since ?? 1) > 1).map(([op]) => op);
  if (added.length) {
    lines.push('', `Format version 2 added ${added.join(', ')}; a model that uses any of them is a version-2 model.`);
  }
  return lines.join('\n');
}

/** The table between the markers of the document `text` (null without markers). */
export function documentedTable(text) {
  const begin = text.indexOf(kBegin);
  const end = text.indexOf(kEnd);
  if (begin < 0 || end < begin) return null;
  return text.slice(begin + kBegin.length, end).trim();
}

/** `text` with the table between the markers replaced by `table`. */
export function withTable(text, table) {
  const begin = text.indexOf(kBegin);
  const end = text.indexOf(kEnd);
  if (begin < 0 || end < begin) throw new Error(`docs/model-format.md lacks the markers ${kBegin} ... ${kEnd}`);
  return `${text.slice(0, begin + kBegin.length)}\n${table}\n${text.slice(end)}`;
}

function main(args) {
  const schema = schemaFromText(readFileSync(kSchemaPath, 'utf8'));
  const doc = readFileSync(kDocPath, 'utf8');
  const updated = withTable(doc, operatorTable(schema));
  if (args.includes('--check')) {
    if (updated !== doc) {
      console.error('docs/model-format.md: the operator table differs from the schema; run node scripts/op-docs.mjs');
      process.exitCode = 1;
    }
    return;
  }
  if (updated !== doc) writeFileSync(kDocPath, updated);
  console.log(`docs/model-format.md: ${updated === doc ? 'operator table up to date' : 'operator table rewritten'}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
