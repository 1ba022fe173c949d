/**
 * Reads the end-of-file address from an HDF5 superblock so that a truncated
 * NetCDF4 file is reported as truncated (with sizes) before the HDF5 library
 * fails on it with an opaque message. Layout: HDF5 File Format Specification
 * v3, section II.A "Disk Format: Level 0A - Format Signature and Superblock"
 * (https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html).
 */
import { open } from 'node:fs/promises';
import { hdf5SignatureOffset } from './magic.js';

export interface SuperblockInfo {
  version: number;
  /** Byte offset of the signature (user block size). */
  base: number;
  /** Bytes the file must have according to the superblock. */
  eofAddress: number;
}

function readAddress(buf: Buffer, at: number, size: number): number {
  if (size === 8) return Number(buf.readBigUInt64LE(at));
  if (size === 4) return buf.readUInt32LE(at);
  if (size === 2) return buf.readUInt16LE(at);
  throw new RangeError(`unsupported offset size ${size}`);
}

/** Parses the superblock; null when the head is too short to hold one. */
export function parseSuperblock(head: Buffer): SuperblockInfo | null {
  const base = hdf5SignatureOffset(head);
  if (base < 0 || head.length < base + 9) return null;
  const version = head[base + 8]!;
  let sizeOfOffsets: number;
  let addrAt: number;
  if (version === 0 || version === 1) {
    // sig 8, versions 4, reserved 1... sizeOfOffsets at +13, then K values and flags;
    // v1 adds 4 bytes (indexed storage K + reserved) before the addresses.
    sizeOfOffsets = head[base + 13]!;
    addrAt = base + 24 + (version === 1 ? 4 : 0);
    // base address, free-space address, then end-of-file address
    addrAt += 2 * sizeOfOffsets;
  } else if (version === 2 || version === 3) {
    sizeOfOffsets = head[base + 9]!;
    // sig 8, version 1, sizes 2, flags 1, then base address, extension address, EOF address
    addrAt = base + 12 + 2 * sizeOfOffsets;
  } else {
    return null;
  }
  if (head.length < addrAt + sizeOfOffsets) return null;
  const eof = readAddress(head, addrAt, sizeOfOffsets);
  const baseAddress = readAddress(head, version <= 1 ? base + 24 + (version === 1 ? 4 : 0) : base + 12, sizeOfOffsets);
  // Addresses are relative to the base address (the user block, normally 0).
  return { version, base, eofAddress: eof + baseAddress };
}

/** Reads the first 4 KiB of `file` and its size. */
export async function readHead(file: string, bytes = 4096): Promise<{ head: Buffer; size: number }> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(Math.min(bytes, size));
    await fh.read(head, 0, head.length, 0);
    return { head, size };
  } finally {
    await fh.close();
  }
}
