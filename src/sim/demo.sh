#!/bin/bash
# shellcheck disable=SC2054 # commas separate values inside one argument
# make demo: a short A/B on the default hdd. deadline-read against the noop
# and elevator baselines, sequential and random readers (1 to 256 threads)
# each against a background streaming writer; table, the wall, bar chart.
set -eu
sim=${1:-build/elvkit-sim}
args=(--sched deadline-read,noop,elevator --device hdd --workload seqread,randread
      --bg write --threads 1,2,4,8,16,32,64,128,256 --size 64m --ios 512
      --time-limit 300 --chart)
echo "elvkit-sim ${args[*]}"
echo "(7200 rpm SATA disk model, NCQ depth 32, write cache on; readers read 4k through 128k read-ahead,"
echo " the writer streams 64k async writeback; a run stops at 300 simulated seconds)"
echo
"$sim" "${args[@]}"
