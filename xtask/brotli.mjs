// Writes FILE.br beside each FILE named on the command line (when smaller than FILE): brotli at its best quality, with
// Node's own zlib (no brotli encoder is among the workspace's crates). Called by xtask's release
// build (xtask/src/build/compress.rs).
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';

for (const file of process.argv.slice(2)) {
  const bytes = readFileSync(file);
  const params = {
    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  };
  const packed = brotliCompressSync(bytes, { params });
  // A copy no smaller than the file is not worth sending.
  if (packed.length < bytes.length) writeFileSync(`${file}.br`, packed);
}
