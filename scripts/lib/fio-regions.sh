# shellcheck shell=bash
# How bench-kernel's guest splits a device among fio's jobs: the one rule,
# for the guest and for bench-sim-vs-kernel.sh, whose simulator threads must
# start where the kernel's jobs did (on a disk with NCQ, where each stream
# lies under the head decides the order it is served in).

# Jobs' regions are whole multiples of this many MiB (the simulator's
# --region-align).
FIO_REGION_ALIGN_MB=1

# fio_devsize SECTORS: the bytes of the device the jobs use, in whole 4 MiB,
# so that its half and three quarters, where jobs start, are MiB-aligned:
# O_DIRECT on a 4 KiB-sector device (ekdisk's hdd, 1000 GB) refused the
# start-up job's reads at 3/4 with EINVAL.
fio_devsize() { echo $(($1 * 512 >> 22 << 22)); }

# fio_region BYTES JOBS: each job's --size and --offset_increment when JOBS
# jobs split BYTES.
fio_region() {
	local a=$((FIO_REGION_ALIGN_MB << 20))
	echo $(($1 / $2 / a * a))
}
