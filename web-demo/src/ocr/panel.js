// The OCR section: the bundled sample preselected, any picked or dropped image read by the
// pipeline, boxes drawn over the image, lines listed with confidences, time per stage.
import { onFile } from '../files.js';
import { fetchOk, OcrPipeline } from './pipeline.js';

const $ = (selector) => document.querySelector(selector);

function setStatus(state, text) {
  $('#ocr-status').dataset.state = state;
  $('#ocr-status').textContent = text;
}

function show(image, result) {
  const canvas = $('#ocr-canvas');
  canvas.dataset.boxes = String(result.boxes.length);
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  context.lineWidth = Math.max(2, image.width / 400);
  context.strokeStyle = '#e8590c';
  for (const { x0, y0, x1, y1 } of result.boxes) context.strokeRect(x0, y0, x1 - x0, y1 - y0);

  $('#ocr-lines').replaceChildren(...result.lines.map(({ text, confidence, upsideDown }) => {
    const item = document.createElement('li');
    item.textContent = text;
    const note = document.createElement('span');
    note.className = 'confidence';
    note.textContent = `${(confidence * 100).toFixed(1)} %${upsideDown ? ', was upside down' : ''}`;
    item.append(note);
    return item;
  }));
  const rows = [['detect', 'text detection'], ['classify', 'direction'], ['recognise', 'recognition']];
  $('#ocr-times').replaceChildren(...rows.map(([key, label]) => {
    const row = document.createElement('tr');
    row.innerHTML = `<td>${label}</td><td>${result.times[key].toFixed(1)} ms</td>`;
    return row;
  }));
}

async function loadImage(source) {
  const blob = source instanceof Blob ? source : await (await fetchOk(source)).blob();
  try {
    return await createImageBitmap(blob);
  } catch {
    throw new Error(`${source.name ?? 'the file'} is not an image this browser can decode`);
  }
}

export async function setupOcr(engine) {
  setStatus('loading', 'loading models…');
  let pipeline;
  try {
    pipeline = await OcrPipeline.load(engine, new URL('/models/', location.href), (text) => setStatus('loading', text));
  } catch (error) {
    setStatus('failed', `the OCR models could not be loaded: ${error.message}`);
    return;
  }
  let latest = 0;  // a newer image supersedes a read still running
  const read = async (source) => {
    const generation = ++latest;
    try {
      setStatus('running', 'reading…');
      const image = await loadImage(source);
      const result = await pipeline.read(image);
      if (generation !== latest) return;
      show(image, result);
      setStatus('done', `${result.lines.length} lines`);
    } catch (error) {
      if (generation === latest) setStatus('failed', error.message);
    }
  };
  onFile($('#ocr-drop'), $('#ocr-file'), read);
  await read('/samples/text-sample.png');
}
