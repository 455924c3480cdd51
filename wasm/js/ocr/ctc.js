// Greedy CTC decoding of PP-OCR's recogniser output: per time step the most likely class;
// repeats collapse and blanks (class 0) separate. Classes 1..n are the dictionary's lines,
// class n + 1 is a space.

/** { text, confidence } from `probs` [steps x classes]; confidence: mean of kept maxima. */
export function ctcDecode(probs, steps, classes, dictionary) {
  let text = '';
  let sum = 0;
  let kept = 0;
  let previous = 0;
  for (let t = 0; t < steps; ++t) {
    let best = 0;
    for (let c = 1; c < classes; ++c) {
      if (probs[t * classes + c] > probs[t * classes + best]) best = c;
    }
    if (best !== 0 && best !== previous) {
      text += best <= dictionary.length ? dictionary[best - 1] : ' ';
      sum += probs[t * classes + best];
      ++kept;
    }
    previous = best;
  }
  return { text: text.trim(), confidence: kept ? sum / kept : 0 };
}
