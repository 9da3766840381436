#!/bin/bash
# shellcheck disable=SC2054 # commas separate values inside one argument
# make demo: an A/B on the default hdd. deadline-read against the noop and
# elevator baselines, sequential and random readers (1 to 256 threads) each
# against a background streaming writer; table, the wall, bar chart. Runs
# last 10x deadline-read's longest tunable (write_expire: 50 s of simulated
# time), so the table shows steady state, not the first batches.
set -eu
sim=${1:-build/elvkit-sim}
args=(--sched deadline-read,noop,elevator --device hdd --workload seqread,randread
      --bg write --threads 1,2,4,8,16,32,64,128,256 --size 64m --ios 512 --chart)
echo "elvkit-sim ${args[*]}"
echo "(7200 rpm SATA disk model, NCQ depth 32, write cache on; 64 requests in the queue as"
echo " blk-mq gives it; readers read 4k through read-ahead growing to 128k, the writer streams"
echo " 64k buffered writes under wbt; every run lasts at least 50 simulated seconds)"
echo
"$sim" "${args[@]}"
