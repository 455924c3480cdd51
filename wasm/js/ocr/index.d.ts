// Types for tessera/ocr: PP-OCR (detection, direction, recognition) on a Tessera engine.
import type { Engine, LoadProgress, Model } from 'tessera';

/** RGBA pixels: ImageData, or the same fields from any decoder. */
export interface RgbaImage {
  data: Uint8ClampedArray | Uint8Array;
  width: number;
  height: number;
}

export type Point = [number, number];

export interface OcrLine {
  text: string;
  /** Mean probability of the characters read. */
  confidence: number;
  /** The rotated box in image pixels: top-left, top-right, bottom-right, bottom-left. */
  box: [Point, Point, Point, Point];
}

export interface OcrResult {
  /** In reading order; lines read with less than `dropScore` confidence are left out. */
  lines: OcrLine[];
  /** Milliseconds per stage, pre- and post-processing included. */
  times: { detect: number; classify: number; recognise: number; total: number };
  /** Recogniser runs at input dims new to this Ocr (compiled) and seen before (reused). */
  recogniser: { compiled: number; reused: number };
}

export interface OcrOptions {
  /** The detector's input: the image's longer side is scaled down to at most this. Default 960. */
  maxSide?: number;
  /** Lines read with less confidence are dropped. Default 0.5. */
  dropScore?: number;
  /** Crops of one width bucket per recogniser run. Default 1. */
  batch?: number;
  /** Detector post-processing: pixel threshold (0.3), box score (0.6), unclip ratio. */
  threshold?: number;
  boxThreshold?: number;
  unclipRatio?: number;
}

export interface CreateOcrOptions extends OcrOptions {
  /** Models converted from PP-OCR's ONNX files, dims left symbolic; or their JSON URLs. */
  det: Model | URL;
  cls: Model | URL;
  rec: Model | URL;
  /** The recogniser's characters: an array, the keys file's text, or its URL. */
  dictionary: string[] | string | URL;
  onProgress?: (progress: LoadProgress & { model: 'det' | 'cls' | 'rec' }) => void;
}

export class Ocr {
  read(image: RgbaImage): Promise<OcrResult>;
}

export function createOcr(engine: Engine, options: CreateOcrOptions): Promise<Ocr>;

/** The recogniser's input widths; a crop is padded to the first that holds it. */
export const kWidthBuckets: number[];
export function bucketOf(columns: number): number;
