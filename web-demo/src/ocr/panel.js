// The OCR section: the bundled sample preselected, any picked or dropped image read by the
// package's tessera/ocr, rotated boxes drawn over the image, lines listed with confidences,
// time per stage and the recogniser's specialisations compiled and reused.
import { createOcr } from 'tessera/ocr';

import { onFile } from '../files.js';

const $ = (selector) => document.querySelector(selector);

function setStatus(state, text) {
  $('#ocr-status').dataset.state = state;
  $('#ocr-status').textContent = text;
}

/** The response of `url`, or an error naming it. */
async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url}: HTTP ${response.status}`);
  return response;
}

function show(bitmap, result) {
  const canvas = $('#ocr-canvas');
  canvas.dataset.boxes = String(result.lines.length);
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  context.lineWidth = Math.max(2, bitmap.width / 500);
  context.strokeStyle = '#e8590c';
  for (const { box } of result.lines) {
    context.beginPath();
    box.forEach(([x, y], i) => (i ? context.lineTo(x, y) : context.moveTo(x, y)));
    context.closePath();
    context.stroke();
  }

  $('#ocr-lines').replaceChildren(...result.lines.map(({ text, confidence }) => {
    const item = document.createElement('li');
    item.textContent = text;
    const note = document.createElement('span');
    note.className = 'confidence';
    note.textContent = `${(confidence * 100).toFixed(1)} %`;
    item.append(note);
    return item;
  }));
  const rows = [['detect', 'text detection'], ['classify', 'direction'], ['recognise', 'recognition'], ['total', 'total']];
  $('#ocr-times').replaceChildren(...rows.map(([key, label]) => {
    const row = document.createElement('tr');
    row.innerHTML = `<td>${label}</td><td>${result.times[key].toFixed(1)} ms</td>`;
    return row;
  }));
  const { compiled, reused } = result.recogniser;
  $('#ocr-specializations').textContent = `recogniser: ${compiled} width${compiled === 1 ? '' : 's'} compiled, ` +
                                          `${reused} reused`;
}

// The image's pixels, on opaque white, and the bitmap to draw.
async function decode(source) {
  const blob = source instanceof Blob ? source : await (await fetchOk(source)).blob();
  let bitmap;
  try {
    bitmap = await createImageBitmap(blob);
  } catch {
    throw new Error(`${source.name ?? 'the file'} is not an image this browser can decode`);
  }
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  return { bitmap, pixels: context.getImageData(0, 0, bitmap.width, bitmap.height) };
}

export async function setupOcr(engine) {
  setStatus('loading', 'loading models…');
  let ocr;
  try {
    const models = new URL('/models/', location.href);
    ocr = await createOcr(engine, {
      det: new URL('ocr_det.json', models), cls: new URL('ocr_cls.json', models), rec: new URL('ocr_rec.json', models),
      dictionary: new URL('ppocr_keys_v1.txt', models),
      onProgress: ({ model, file, loaded, total }) => {
        if (file === 'weights') setStatus('loading', `loading the ${model} model: ${(100 * loaded / total).toFixed(0)} %`);
      },
    });
  } catch (error) {
    setStatus('failed', `the OCR models could not be loaded: ${error.message}`);
    return;
  }
  let latest = 0;  // a newer image supersedes a read still running
  const read = async (source) => {
    const generation = ++latest;
    try {
      setStatus('running', 'reading…');
      const { bitmap, pixels } = await decode(source);
      const result = await ocr.read(pixels);
      if (generation !== latest) return;
      show(bitmap, result);
      setStatus('done', `${result.lines.length} lines`);
    } catch (error) {
      if (generation === latest) setStatus('failed', error.message);
    }
  };
  onFile($('#ocr-drop'), $('#ocr-file'), read);
  await read('/samples/text-sample.png');
}
