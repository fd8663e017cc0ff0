// What the workbench's browser tests share: screenshots decoded for pixel checks.
import { inflateSync } from 'node:zlib';

/** A decoded screenshot: 8-bit RGBA pixels, row by row. */
export interface Picture {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Decodes the PNGs Chromium writes (8-bit RGB or RGBA, not interlaced), for pixel checks. */
export function decodePng(png: Buffer): Picture {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colorType, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) throw new Error(`unsupported PNG: depth ${depth}, color type ${colorType}`);
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      data.push(body);
    }
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? cur[x - channels]! : 0;
      const b = prev[x]!;
      const c = x >= channels ? prev[x - channels]! : 0;
      let v = line[x]!;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      cur[x] = v & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      out[o] = cur[x * channels]!;
      out[o + 1] = cur[x * channels + 1]!;
      out[o + 2] = cur[x * channels + 2]!;
      out[o + 3] = channels === 4 ? cur[x * channels + 3]! : 255;
    }
    prev = cur;
  }
  return { width, height, rgba: out };
}

/** The pixel at (x, y) as [r, g, b]. */
export function pixel(p: Picture, x: number, y: number): [number, number, number] {
  const o = (y * p.width + x) * 4;
  return [p.rgba[o]!, p.rgba[o + 1]!, p.rgba[o + 2]!];
}

/** How many pixels are within `tolerance` (per channel) of `rgb`. */
export function countColor(p: Picture, rgb: readonly [number, number, number], tolerance = 8): number {
  let n = 0;
  for (let o = 0; o < p.rgba.length; o += 4) {
    if (Math.abs(p.rgba[o]! - rgb[0]) <= tolerance && Math.abs(p.rgba[o + 1]! - rgb[1]) <= tolerance && Math.abs(p.rgba[o + 2]! - rgb[2]) <= tolerance) n++;
  }
  return n;
}
