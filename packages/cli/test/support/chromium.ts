// Headless Chromium for the report tests: Debian's /usr/bin/chromium, installed with apt when it is
// missing and the tests run as root (as CI does), otherwise a reason to skip; each run gets a new
// profile and ends before the call returns. Also reads the PNG screenshots it writes (node:zlib).

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';

/** Where Debian's chromium package puts the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The apt command that installs it (CI runs the same). */
const INSTALL =
  'apt-get update && apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=600 chromium';

/** A headless run that takes longer than this is stuck (this machine has 2 shared cores). */
const RUN_TIMEOUT_MS = 180_000;

/**
 * Without the background-networking flags Chromium looks names up on start, which hangs on a
 * machine without a network; no sandbox because tests run as root in a container.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
  '--force-device-scale-factor=1',
];

let installing: Promise<string | undefined> | undefined;

/**
 * Resolves with undefined when Chromium is there (installing it first when missing and root), or
 * with the reason a test should skip. Rejects when the install was tried and failed. Runs apt once.
 */
export function chromiumSkipReason(): Promise<string | undefined> {
  installing ??= (async () => {
    if (existsSync(CHROMIUM_PATH)) return undefined;
    if (process.getuid?.() !== 0)
      return `${CHROMIUM_PATH} is missing and installing it needs root: run "sudo ${INSTALL}"`;
    const { code, output } = await run('sh', ['-c', INSTALL], 900_000);
    if (code !== 0 || !existsSync(CHROMIUM_PATH))
      throw new Error(`"${INSTALL}" failed (exit ${String(code)}):\n${output.slice(-4000)}`);
    return undefined;
  })();
  return installing;
}

/** More for one run: e.g. `--virtual-time-budget=<ms>`, so a page's postMessage rounds run before the dump. */
export interface RunOptions {
  flags?: readonly string[];
}

/** Opens `file` and resolves with the DOM after its scripts ran (`--dump-dom`). */
export async function dumpDom(file: string, options: RunOptions = {}): Promise<string> {
  return withProfile(async (profile) => {
    const { code, stdout, output } = await run(
      CHROMIUM_PATH,
      [
        ...CHROMIUM_FLAGS,
        ...(options.flags ?? []),
        `--user-data-dir=${profile}`,
        '--dump-dom',
        pathToFileURL(file).href,
      ],
      RUN_TIMEOUT_MS,
    );
    if (code !== 0 || stdout === '')
      throw new Error(`chromium --dump-dom exited ${String(code)}:\n${output.slice(-4000)}`);
    return stdout;
  });
}

/** Opens `file` in a window of `size` and writes what it shows to `png`. */
export async function screenshot(
  file: string,
  png: string,
  size: { width: number; height: number },
  options: RunOptions = {},
): Promise<void> {
  await withProfile(async (profile) => {
    const { code, output } = await run(
      CHROMIUM_PATH,
      [
        ...CHROMIUM_FLAGS,
        ...(options.flags ?? []),
        `--user-data-dir=${profile}`,
        `--window-size=${size.width},${size.height}`,
        `--screenshot=${png}`,
        pathToFileURL(file).href,
      ],
      RUN_TIMEOUT_MS,
    );
    if (code !== 0 || !existsSync(png))
      throw new Error(`chromium --screenshot exited ${String(code)}:\n${output.slice(-4000)}`);
  });
}

/** A decoded PNG: `pixels` holds 4 bytes (RGBA) per pixel, rows top to bottom. */
export interface DecodedPng {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes); throws on anything else. */
export function decodePng(data: Buffer): DecodedPng {
  if (!data.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])))
    throw new Error('not a PNG: the signature is missing');
  let width = 0;
  let height = 0;
  let colourType = -1;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= data.length;) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      colourType = body[9]!;
      if (body[8] !== 8 || body[12] !== 0 || (colourType !== 2 && colourType !== 6))
        throw new Error(
          `unsupported PNG: bit depth ${body[8]}, colour type ${colourType}, interlace ${body[12]}`,
        );
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const channels = colourType === 6 ? 4 : 3;
  return {
    width,
    height,
    pixels: toRgba(unfilter(inflateSync(Buffer.concat(idat)), width, height, channels), channels),
  };
}

/** Undoes the per-row filters (PNG spec section 9: None, Sub, Up, Average, Paeth). */
function unfilter(raw: Buffer, width: number, height: number, channels: number): Uint8Array {
  const stride = width * channels;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? out[y * stride + x - channels]! : 0;
      const up = y > 0 ? out[(y - 1) * stride + x]! : 0;
      const upLeft = y > 0 && x >= channels ? out[(y - 1) * stride + x - channels]! : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter];
      if (predictor === undefined) throw new Error(`bad PNG filter type ${filter} in row ${y}`);
      out[y * stride + x] = (row[x]! + predictor) & 0xff;
    }
  }
  return out;
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const [toLeft, toUp, toUpLeft] = [left, up, upLeft].map((value) => Math.abs(estimate - value)) as [
    number,
    number,
    number,
  ];
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

function toRgba(pixels: Uint8Array, channels: number): Uint8Array {
  if (channels === 4) return pixels;
  const out = new Uint8Array((pixels.length / 3) * 4);
  for (let from = 0, to = 0; from < pixels.length; from += 3, to += 4) {
    out[to] = pixels[from]!;
    out[to + 1] = pixels[from + 1]!;
    out[to + 2] = pixels[from + 2]!;
    out[to + 3] = 255;
  }
  return out;
}

async function withProfile<T>(work: (profile: string) => Promise<T>): Promise<T> {
  // A profile per run: two Chromiums on one profile would hand the page to the first one.
  const profile = await mkdtemp(join(tmpdir(), 'mcpwire-chromium-'));
  try {
    return await work(profile);
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

/** Runs a command to its end in its own process group, killed whole after `timeoutMs`. */
function run(
  command: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`${command} did not finish within ${timeoutMs} ms:\n${output.slice(-4000)}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, output });
    });
  });
}

/** Undoes what Chromium's serializer escapes in text (`&`, `<`, `>`, no-break space). */
export function decodeText(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');
}
