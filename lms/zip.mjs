// A zip file from a few in-memory files (the LMS packages: a manifest, the
// schemas, one page), written with Node's own zlib (deflate, CRC-32), so the
// npm package's `posenc-course export` needs no dependency. Each entry is
// deflated (level 9) unless that makes it larger, then stored; times are the
// one `mtime` given, so the same files give the same bytes. No zip64: an LMS
// package here is a few megabytes, and a file over 4 GiB is refused.
//
//   zipFiles({ 'imsmanifest.xml': text, 'index.html': bytes, ... }, { mtime }) -> Buffer
import { crc32, deflateRawSync } from 'node:zlib';

const LIMIT = 0xffffffff;

// MS-DOS date and time (2-second resolution, local fields written as UTC)
function dosTime(date) {
  const d = new Date(date);
  const time = (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2);
  const day = ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate();
  return { time, day };
}

/** A zip archive of `files` ({ path: string | Uint8Array }), in the order given. */
export function zipFiles(files, { mtime = new Date('2025-01-01T00:00:00Z') } = {}) {
  const { time, day } = dosTime(mtime);
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    if (!name || name.startsWith('/') || name.includes('..') || name.includes('\\'))
      throw new Error(`zip: "${name}" is not a relative path inside the package`);
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    if (data.length > LIMIT) throw new Error(`zip: ${name} is larger than 4 GiB`);
    const deflated = deflateRawSync(data, { level: 9 });
    const stored = deflated.length >= data.length;
    const body = stored ? data : deflated;
    const fileName = Buffer.from(name, 'utf8');
    const crc = crc32(data) >>> 0;
    const method = stored ? 0 : 8;
    const flags = 0x0800; // names are UTF-8
    // the fields the local header (from byte 6) and the central record (from
    // byte 8) share, in the same order
    const shared = (header, at) => {
      header.writeUInt16LE(flags, at);
      header.writeUInt16LE(method, at + 2);
      header.writeUInt16LE(time, at + 4);
      header.writeUInt16LE(day, at + 6);
      header.writeUInt32LE(crc, at + 8);
      header.writeUInt32LE(body.length, at + 12);
      header.writeUInt32LE(data.length, at + 16);
      header.writeUInt16LE(fileName.length, at + 20);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    shared(local, 6);
    // extra field length (28): 0
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0, MS-DOS attributes
    central.writeUInt16LE(20, 6);
    shared(central, 8);
    // extra, comment, disk, internal and external attributes: 0
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, body);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + body.length;
    if (offset > LIMIT) throw new Error('zip: the package is larger than 4 GiB');
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
