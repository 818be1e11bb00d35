// Which IP addresses are special-purpose (the IANA IPv4 and IPv6 Special-Purpose Address Registries,
// RFC 6890): loopback, private, shared (CGN, where cloud metadata services live), link-local,
// documentation, benchmarking, multicast, reserved. IPv6 forms that carry an IPv4 address (mapped,
// compatible, NAT64, 6to4) are judged by that address. Pure: no DNS, no Node.

/** A special-purpose range an address is in. */
export interface SpecialRange {
  /** The registry's name of the range, with its prefix: `loopback (127.0.0.0/8)`. */
  name: string;
  isLoopback: boolean;
}

interface Row {
  /** The prefix's bytes (4 for IPv4, 16 for IPv6) and length in bits. */
  bytes: readonly number[];
  bits: number;
  name: string;
  isLoopback?: boolean;
  /** An IPv6 range whose addresses carry an IPv4 address at this byte offset: judged by it. */
  embedsV4At?: number;
}

const V4: readonly Row[] = [
  { bytes: [0, 0, 0, 0], bits: 8, name: '"this network" (0.0.0.0/8)' },
  { bytes: [10, 0, 0, 0], bits: 8, name: 'private (10.0.0.0/8)' },
  { bytes: [100, 64, 0, 0], bits: 10, name: 'shared address space (100.64.0.0/10)' },
  { bytes: [127, 0, 0, 0], bits: 8, name: 'loopback (127.0.0.0/8)', isLoopback: true },
  { bytes: [169, 254, 0, 0], bits: 16, name: 'link-local (169.254.0.0/16)' },
  { bytes: [172, 16, 0, 0], bits: 12, name: 'private (172.16.0.0/12)' },
  { bytes: [192, 0, 0, 0], bits: 24, name: 'IETF protocol assignments (192.0.0.0/24)' },
  { bytes: [192, 0, 2, 0], bits: 24, name: 'documentation (192.0.2.0/24)' },
  { bytes: [192, 88, 99, 0], bits: 24, name: '6to4 relay anycast (192.88.99.0/24)' },
  { bytes: [192, 168, 0, 0], bits: 16, name: 'private (192.168.0.0/16)' },
  { bytes: [198, 18, 0, 0], bits: 15, name: 'benchmarking (198.18.0.0/15)' },
  { bytes: [198, 51, 100, 0], bits: 24, name: 'documentation (198.51.100.0/24)' },
  { bytes: [203, 0, 113, 0], bits: 24, name: 'documentation (203.0.113.0/24)' },
  { bytes: [224, 0, 0, 0], bits: 4, name: 'multicast (224.0.0.0/4)' },
  { bytes: [240, 0, 0, 0], bits: 4, name: 'reserved (240.0.0.0/4)' },
];

const V6: readonly Row[] = [
  { bytes: v6('::'), bits: 128, name: 'unspecified (::/128)' },
  { bytes: v6('::1'), bits: 128, name: 'loopback (::1/128)', isLoopback: true },
  { bytes: v6('::ffff:0:0'), bits: 96, name: 'IPv4-mapped (::ffff:0:0/96)', embedsV4At: 12 },
  { bytes: v6('::ffff:0:0:0'), bits: 96, name: 'IPv4-translated (::ffff:0:0:0/96)', embedsV4At: 12 },
  { bytes: v6('::'), bits: 96, name: 'IPv4-compatible (::/96)', embedsV4At: 12 },
  { bytes: v6('64:ff9b::'), bits: 96, name: 'NAT64 (64:ff9b::/96)', embedsV4At: 12 },
  { bytes: v6('64:ff9b:1::'), bits: 48, name: 'local-use NAT64 (64:ff9b:1::/48)' },
  { bytes: v6('100::'), bits: 64, name: 'discard-only (100::/64)' },
  { bytes: v6('2001::'), bits: 23, name: 'IETF protocol assignments, Teredo included (2001::/23)' },
  { bytes: v6('2001:db8::'), bits: 32, name: 'documentation (2001:db8::/32)' },
  { bytes: v6('2002::'), bits: 16, name: '6to4 (2002::/16)', embedsV4At: 2 },
  { bytes: v6('3fff::'), bits: 20, name: 'documentation (3fff::/20)' },
  { bytes: v6('5f00::'), bits: 16, name: 'segment routing (5f00::/16)' },
  { bytes: v6('fc00::'), bits: 7, name: 'unique local (fc00::/7)' },
  { bytes: v6('fe80::'), bits: 10, name: 'link-local (fe80::/10)' },
  { bytes: v6('fec0::'), bits: 10, name: 'site-local (fec0::/10)' },
  { bytes: v6('ff00::'), bits: 8, name: 'multicast (ff00::/8)' },
];

/**
 * The special-purpose range `address` (an IPv4 or IPv6 literal, brackets allowed) is in, or undefined
 * for a globally reachable address and for text that is not an IP address (a DNS name).
 */
export function specialRangeOf(address: string): SpecialRange | undefined {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return lookUp(V4, v4);
  const bytes = parseIpv6(text);
  return bytes === undefined ? undefined : lookUp(V6, bytes);
}

/** True when `text` is an IPv4 or IPv6 literal (brackets allowed). */
export function isIpAddress(text: string): boolean {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return parseIpv4(bare) !== undefined || parseIpv6(bare) !== undefined;
}

function lookUp(rows: readonly Row[], bytes: readonly number[]): SpecialRange | undefined {
  for (const row of rows) {
    if (!hasPrefix(bytes, row)) continue;
    if (row.embedsV4At !== undefined) {
      const inner = lookUp(V4, bytes.slice(row.embedsV4At, row.embedsV4At + 4));
      // A carried public IPv4 address reaches that address: the form itself is no harm.
      return inner === undefined ? undefined : { ...inner, name: `${inner.name} as ${row.name}` };
    }
    return { name: row.name, isLoopback: row.isLoopback === true };
  }
  return undefined;
}

function hasPrefix(bytes: readonly number[], row: Row): boolean {
  if (bytes.length !== row.bytes.length) return false;
  for (let bit = 0; bit < row.bits; bit += 8) {
    const mask = row.bits - bit >= 8 ? 0xff : (0xff << (8 - (row.bits - bit))) & 0xff;
    const index = bit / 8;
    if (((bytes[index] ?? 0) & mask) !== ((row.bytes[index] ?? 0) & mask)) return false;
  }
  return true;
}

/** Dotted decimal only (what the URL parser turns every IPv4 spelling into); else undefined. */
function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
  return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

/** An IPv6 literal (`::` shorthand and an IPv4 tail allowed, no zone) as 16 bytes; else undefined. */
function parseIpv6(text: string): number[] | undefined {
  if (!/^[0-9a-f:.]+$/i.test(text)) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): number[] | undefined => {
    if (half === '') return [];
    const groups: number[] = [];
    const pieces = half.split(':');
    for (const [index, piece] of pieces.entries()) {
      if (piece.includes('.')) {
        const v4 = index === pieces.length - 1 ? parseIpv4(piece) : undefined;
        if (v4 === undefined) return undefined;
        groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) groups.push(parseInt(piece, 16));
      else return undefined;
    }
    return groups;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

function v6(text: string): number[] {
  const bytes = parseIpv6(text);
  if (bytes === undefined) throw new Error(`bad IPv6 prefix ${text}`);
  return bytes;
}
