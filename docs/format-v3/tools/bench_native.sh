#!/usr/bin/env bash
# bench_native.sh DIR: native (C) zstd and lz4 benchmarks of a dump.py directory: per record
# with the dictionary (levels 3 and 19), blocks of 4/16/64 KiB with and without it, lz4 on
# 64 KiB blocks. Prints the CLI's own result lines (level#file : in -> out (ratio), compression
# MB/s, decompression MB/s).
set -uo pipefail
d=$1
run() { # label, then zstd/lz4 arguments
  local label=$1; shift
  printf '%-36s ' "$label"
  "$@" 2>&1 | tr '\r' '\n' | grep -E 'MB/s.*MB/s' | tail -1 | sed 's/^ *//'
}
for l in 3 19; do
  run "per record, dict64, level $l" zstd -b$l -i1 -D "$d/dict64" -r "$d/rec"
done
run "per record, no dict, level 3" zstd -b3 -i1 -r "$d/rec"
for b in 4096 16384 65536; do
  for l in 3 19; do
    run "blocks $b, no dict, level $l" zstd -b$l -i1 -B$b "$d/all.bin"
    run "blocks $b, dict64, level $l" zstd -b$l -i1 -B$b -D "$d/dict64" "$d/all.bin"
  done
done
run "lz4 64 KiB blocks, level 1" lz4 -b1 -i1 -B4 "$d/all.bin"
run "lz4 64 KiB blocks, level 12" lz4 -b12 -i1 -B4 "$d/all.bin"
