/**
 * Container sniffing by magic bytes (never by extension).
 * NetCDF3: "CDF" + version byte (1 classic, 2 64-bit offset, 5 CDF5), see
 * https://docs.unidata.ucar.edu/netcdf-c/current/file_format_specifications.html
 * HDF5 (NetCDF4): the 8-byte signature at offset 0 or at a user-block offset
 * 512, 1024, 2048, ... (HDF5 File Format Specification, section II.A).
 */

export type NcContainer = 'cdf1' | 'cdf2' | 'cdf5' | 'hdf5';

export const HDF5_SIGNATURE = Uint8Array.of(0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a);

function hasSignatureAt(head: Uint8Array, at: number): boolean {
  if (head.length < at + HDF5_SIGNATURE.length) return false;
  for (let i = 0; i < HDF5_SIGNATURE.length; i++) if (head[at + i] !== HDF5_SIGNATURE[i]) return false;
  return true;
}

/** Offset of the HDF5 signature in `head`, or -1. */
export function hdf5SignatureOffset(head: Uint8Array): number {
  for (let at = 0; at + 8 <= head.length; at = at === 0 ? 512 : at * 2) {
    if (hasSignatureAt(head, at)) return at;
  }
  return -1;
}

export function sniffContainer(head: Uint8Array): NcContainer | null {
  if (head.length >= 4 && head[0] === 0x43 && head[1] === 0x44 && head[2] === 0x46) {
    if (head[3] === 1) return 'cdf1';
    if (head[3] === 2) return 'cdf2';
    if (head[3] === 5) return 'cdf5';
    return null;
  }
  return hdf5SignatureOffset(head) >= 0 ? 'hdf5' : null;
}
