// Four realistic OCR test images drawn with canvas 2D in the browser, with their ground truth:
// a prose screenshot, a presentation slide, a photographed receipt (rotated, textured, JPEG) and
// a web form. Plain ES module with no imports, so a page can load it as is.
//
//   const { canvas, lines } = await render('receipt');
//
// `lines` is every text drawn, one entry per visual line (what a detector boxes as one line), in
// reading order: top to bottom, left to right within a row. Only ASCII letters, digits and common
// punctuation, so a Chinese+English recognizer's dictionary covers every character. No
// Math.random: a seeded PRNG keeps the pixels the same on every run.

export const RENDER_NAMES = ['prose', 'slide', 'receipt', 'form'];

const SANS = "'DejaVu Sans', 'Liberation Sans', sans-serif";
const MONO = "'DejaVu Sans Mono', 'Liberation Mono', monospace";

/** Renders the image `name`: { canvas, lines }. */
export async function render(name) {
  const draw = { prose, slide, receipt, form }[name];
  if (!draw) throw new Error(`unknown render ${name}: expected one of ${RENDER_NAMES.join(', ')}`);
  await document.fonts.ready;
  return draw();
}

// An opaque canvas and its context, text baselines at the top of the em box for easy layout.
function makeCanvas(width, height) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { alpha: false });
  ctx.textBaseline = 'top';
  return { canvas, ctx };
}

// Draws a line of text and records it as truth.
function truthWriter(ctx, lines) {
  return (line, x, y, font, color) => {
    ctx.font = font;
    ctx.fillStyle = color;
    ctx.fillText(line, x, y);
    lines.push(line);
  };
}

// mulberry32: a small seeded PRNG returning floats in [0, 1).
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

// A documentation page screenshot: a browser-like top bar, then three paragraphs of prose.
function prose() {
  const { canvas, ctx } = makeCanvas(1200, 800);
  ctx.fillStyle = '#fbfbf9';
  ctx.fillRect(0, 0, 1200, 800);
  // Chrome without text: a top bar and a faint sidebar rule, as in a real page capture.
  ctx.fillStyle = '#eceef1';
  ctx.fillRect(0, 0, 1200, 48);
  ctx.fillStyle = '#d5d9de';
  ctx.fillRect(0, 48, 1200, 1);
  ctx.fillRect(40, 80, 2, 660);

  const paragraphs = [
    {
      size: 15,
      lines: [
        'The inference engine loads a model once, plans its memory and then runs it many times.',
        'Each run takes about 38 ms on a laptop, and 12 ms when four threads share the work.',
        'Weights are packed ahead of time; activations live in a single arena of 6.5 MB.',
        'Nothing is allocated while a request is served, which keeps latency steady.',
      ],
    },
    {
      size: 14,
      lines: [
        'Why does tiling help? Large convolutions are split into tiles of 64 by 64 pixels,',
        'so that the inputs of one tile stay in the cache while its outputs are computed.',
        'On 2 cores the speed-up is 1.8x; on 8 cores it reaches 5.9x (see the table below).',
        'Smaller tiles waste time on borders, larger ones spill out of the L2 cache: 256 KB.',
      ],
    },
    {
      size: 13,
      lines: [
        'To try it, install the package and call run() with a Float32Array of inputs.',
        'The result is a map from output names to tensors; check its dims first.',
        'Errors name the node that failed, for example "Conv_12: kernel larger than input".',
        'Version 0.1.0 was released on 3 March 2024 under the MIT licence.',
      ],
    },
  ];
  ctx.fillStyle = '#333333';
  const lines = [];
  let y = 96;
  for (const paragraph of paragraphs) {
    ctx.font = `${paragraph.size}px ${SANS}`;
    for (const line of paragraph.lines) {
      ctx.fillText(line, 72, y);
      lines.push(line);
      y += Math.round(paragraph.size * 1.6);
    }
    y += paragraph.size * 1.5;
  }
  return { canvas, lines };
}

// A title slide: dark blue gradient, an accent band, title, subtitle, bullets and a footer.
function slide() {
  const { canvas, ctx } = makeCanvas(1280, 720);
  const background = ctx.createLinearGradient(0, 0, 1280, 720);
  background.addColorStop(0, '#0b1f4b');
  background.addColorStop(1, '#1d4e89');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, 1280, 720);
  ctx.fillStyle = '#f5a623';
  ctx.fillRect(96, 204, 160, 6);
  ctx.fillStyle = 'rgba(255, 255, 255, 0.08)';
  ctx.fillRect(0, 660, 1280, 60);

  const lines = [];
  const text = truthWriter(ctx, lines);
  text('Quarterly Results 2024', 96, 110, `bold 56px ${SANS}`, '#ffffff');
  text('Revenue grew 18% across all regions', 96, 236, `28px ${SANS}`, '#cfe0ff');
  const bullets = [
    'New customers: 1,240 (up from 910 last year)',
    'Average order value rose to $86.40',
    'Support tickets fell by 23% after the March update',
    'Two new offices opened: Lisbon and Toronto',
    'Next step: launch the mobile app in Q3',
  ];
  bullets.forEach((line, i) => {
    const y = 330 + i * 52;
    // The bullet is a shape, not a character: it is not part of the truth.
    ctx.fillStyle = '#f5a623';
    ctx.beginPath();
    ctx.arc(112, y + 11, 5, 0, 2 * Math.PI);
    ctx.fill();
    text(line, 132, y, `21px ${SANS}`, '#f2f5fa');
  });
  text('Northwind Labs - Board meeting, 12 April 2024', 96, 682, `14px ${SANS}`, '#aab8d0');
  return { canvas, lines };
}

// A wooden table top: fine grain lines along x that wander with y, streaks that vary from row to
// row, and per-pixel noise.
function drawWood(ctx, width, height, random) {
  const image = ctx.createImageData(width, height);
  const waves = Array.from({ length: 3 }, () => ({
    f: 0.003 + random() * 0.008, p: random() * 6.28, a: 4 + random() * 24,
  }));
  // Per row: a streak shade, and a ring phase that advances irregularly so ring widths vary.
  const streaks = Float32Array.from({ length: height + 64 }, () => random());
  const rings = new Float32Array(height + 64);
  for (let r = 1; r < rings.length; r++) rings[r] = rings[r - 1] + 0.05 + 0.35 * random() ** 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let bend = 0;
      for (const w of waves) bend += w.a * Math.sin(x * w.f + w.p);
      const v = y + bend;
      const row = Math.max(0, Math.min(height + 63, Math.round(v + 32)));
      const grain = 0.55 * (0.5 + 0.5 * Math.sin(rings[row])) ** 3 + 0.25 * streaks[row] + 0.2 * Math.sin(v * 0.017);
      const noise = (random() - 0.5) * 14;
      const i = (y * width + x) * 4;
      image.data[i] = 150 - 50 * grain + noise;
      image.data[i + 1] = 102 - 38 * grain + noise;
      image.data[i + 2] = 62 - 26 * grain + noise;
      image.data[i + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
}

// Re-encodes the canvas as JPEG and draws the decoded image back, so its pixels carry the artifacts.
async function jpegRoundTrip(canvas, quality) {
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
  const bitmap = await createImageBitmap(blob);
  canvas.getContext('2d').drawImage(bitmap, 0, 0);
  bitmap.close();
}

// A till receipt photographed on a table: rotated paper, uneven light, JPEG-compressed.
async function receipt() {
  const { canvas, ctx } = makeCanvas(900, 1100);
  drawWood(ctx, 900, 1100, seeded(20240314));

  const paperWidth = 420;
  const lineHeight = 32;
  // Item names all take 19 columns, so every price sits one space after its name, right-aligned:
  // wider gaps make detectors split a row into two boxes, dot leaders get miscounted.
  const rows = [
    { text: 'GREENLEAF MARKET', align: 'center', bold: true },
    { text: '214 Harbour Road, Bristol', align: 'center' },
    { text: 'Tel: 0117 496 0321', align: 'center' },
    { text: 'Date: 14/03/2024 18:42', align: 'left', ruleAfter: true },
    { text: 'Sourdough loaf 800g 4.50', align: 'left' },
    { text: 'Free range eggs x12 3.25', align: 'left' },
    { text: 'Oat milk 1 litre x2 3.78', align: 'left' },
    { text: 'Cheddar cheese 400g 5.70', align: 'left' },
    { text: 'Bananas loose 1.2kg 1.44', align: 'left' },
    { text: 'Arabica coffee 250g 6.95', align: 'left', ruleAfter: true },
    { text: 'Subtotal 25.62', align: 'right' },
    { text: 'VAT 20% 5.12', align: 'right' },
    { text: 'TOTAL 30.74', align: 'right', bold: true, ruleAfter: true },
    { text: 'Card payment: VISA 4821', align: 'left' },
    { text: 'Thank you for shopping!', align: 'center' },
  ];
  const paperHeight = 70 + rows.length * lineHeight + 40;

  ctx.save();
  ctx.translate(450, 550);
  ctx.rotate((3.5 * Math.PI) / 180);
  ctx.translate(-paperWidth / 2, -paperHeight / 2);
  ctx.shadowColor = 'rgba(0, 0, 0, 0.45)';
  ctx.shadowBlur = 18;
  ctx.shadowOffsetX = 6;
  ctx.shadowOffsetY = 8;
  ctx.fillStyle = '#f6f1e4';
  ctx.fillRect(0, 0, paperWidth, paperHeight);
  ctx.shadowColor = 'transparent';
  ctx.fillStyle = '#2b2a28';
  ctx.font = `18px ${MONO}`;
  // The item block (24 columns) is centred on the paper; left and right rows align to its edges.
  const left = Math.round((paperWidth - 24 * ctx.measureText('0').width) / 2);
  const x = { left, center: paperWidth / 2, right: paperWidth - left };
  let y = 50;
  for (const row of rows) {
    ctx.font = `${row.bold ? 'bold ' : ''}18px ${MONO}`;
    ctx.textAlign = row.align;
    ctx.fillText(row.text, x[row.align], y);
    y += lineHeight;
    if (row.ruleAfter) {
      // A printed rule between sections, drawn as a thin line rather than a row of dashes.
      ctx.fillRect(left, y - 9, paperWidth - 2 * left, 1);
    }
  }
  ctx.restore();
  ctx.textAlign = 'left';

  // Uneven light: brighter near the lamp at the top left, darker at the bottom right.
  const light = ctx.createRadialGradient(250, 200, 100, 450, 550, 900);
  light.addColorStop(0, 'rgba(255, 250, 235, 0.12)');
  light.addColorStop(0.5, 'rgba(0, 0, 0, 0)');
  light.addColorStop(1, 'rgba(0, 0, 0, 0.28)');
  ctx.fillStyle = light;
  ctx.fillRect(0, 0, 900, 1100);

  await jpegRoundTrip(canvas, 0.75);
  return { canvas, lines: rows.map((row) => row.text) };
}

// A sign-up form in a card: heading, labelled inputs (typed or placeholder), a checkbox, two buttons.
// Labels sit above their inputs and the buttons are stacked, so no row holds two texts: some readers
// join every box on a row into one line, which would make the truth depend on the reader.
function form() {
  const { canvas, ctx } = makeCanvas(1000, 700);
  ctx.fillStyle = '#f1f3f6';
  ctx.fillRect(0, 0, 1000, 700);
  ctx.fillStyle = '#ffffff';
  ctx.strokeStyle = '#d9dde3';
  roundRect(ctx, 250.5, 16.5, 500, 668, 10);
  ctx.fill();
  ctx.stroke();

  const lines = [];
  const text = truthWriter(ctx, lines);
  text('Create your account', 290, 40, `bold 26px ${SANS}`, '#1f2933');

  const fields = [
    { label: 'First name', value: 'Maria' },
    { label: 'Last name', value: 'Fernandes' },
    { label: 'Email address', value: 'maria.fernandes@example.com' },
    { label: 'Phone number', placeholder: 'e.g. 020 7946 0958' },
    { label: 'Company', placeholder: 'Optional' },
    { label: 'Country', value: 'United Kingdom' },
  ];
  fields.forEach((field, i) => {
    const y = 92 + i * 70;
    text(field.label, 290, y, `15px ${SANS}`, '#3e4c59');
    ctx.fillStyle = '#ffffff';
    ctx.strokeStyle = '#b8c0cc';
    ctx.lineWidth = 1;
    roundRect(ctx, 290.5, y + 22.5, 420, 36, 4);
    ctx.fill();
    ctx.stroke();
    const typed = field.value !== undefined;
    text(typed ? field.value : field.placeholder, 303, y + 32, `16px ${SANS}`, typed ? '#1f2933' : '#8a929c');
  });

  ctx.strokeStyle = '#7b8794';
  ctx.lineWidth = 1.5;
  roundRect(ctx, 290.5, 520.5, 18, 18, 3);
  ctx.stroke();
  text('I agree to the terms and privacy policy', 320, 522, `15px ${SANS}`, '#3e4c59');

  const buttons = [
    { label: 'Submit', y: 560, color: '#2563eb' },
    { label: 'Cancel', y: 616, color: '#6b7280' },
  ];
  ctx.textAlign = 'center';
  for (const button of buttons) {
    ctx.fillStyle = button.color;
    roundRect(ctx, 290, button.y, 420, 44, 6);
    ctx.fill();
    text(button.label, 500, button.y + 14, `bold 16px ${SANS}`, '#ffffff');
  }
  ctx.textAlign = 'left';
  return { canvas, lines };
}
