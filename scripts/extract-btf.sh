#!/usr/bin/env bash
# Write kernel RELEASE's BTF (raw, as in /sys/kernel/btf/vmlinux) to OUT.
# Sources, in order: the running kernel's /sys/kernel/btf/vmlinux, else the
# kernel image (/boot/vmlinuz-R or /lib/modules/R/vmlinuz) decompressed and
# its .BTF section copied out. Usage: extract-btf.sh RELEASE OUT
set -euo pipefail
ver=$1 out=$2
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh

if [ "$(uname -r)" = "$ver" ] && [ -r /sys/kernel/btf/vmlinux ]; then
	cp /sys/kernel/btf/vmlinux "$out"
	exit 0
fi
img=$(k_vmlinuz "$ver") || { echo "extract-btf: no kernel image for $ver" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A bzImage carries the compressed vmlinux ELF; try each compression magic
# at every offset where it occurs until one decompresses into an ELF.
python3 - "$img" "$tmp/vmlinux" <<'PY'
import lzma, gzip, zlib, sys, subprocess
img = open(sys.argv[1], 'rb').read()
out = sys.argv[2]
def try_xz(b):
    return lzma.LZMADecompressor().decompress(b)
def try_gz(b):
    return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(b)
def try_zstd(b):
    return subprocess.run(['zstd', '-dc'], input=b, capture_output=True).stdout
for magic, fn in ((b'\xfd7zXZ\x00', try_xz), (b'\x28\xb5\x2f\xfd', try_zstd),
                  (b'\x1f\x8b\x08', try_gz)):
    pos = img.find(magic)
    while pos >= 0:
        try:
            data = fn(img[pos:])
        except Exception:
            data = b''
        if data[:4] == b'\x7fELF':
            open(out, 'wb').write(data)
            sys.exit(0)
        pos = img.find(magic, pos + 1)
sys.exit("extract-btf: no compressed ELF found in " + sys.argv[1])
PY
objcopy -O binary --only-section=.BTF "$tmp/vmlinux" "$out"
[ -s "$out" ] || { echo "extract-btf: $img has no .BTF section" >&2; exit 1; }
