#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim: unknown scheduler, device, workload, tunable and malformed numbers exit 2 with a one-line reason"
set -u
# shellcheck source=tests/sim/bad_args.sh
. "$(dirname "$0")/bad_args.sh"
bad --sched nosuch
bad --sched noop,
bad --device floppy
bad --workload seqsomething
bad --threads 1,x
bad --threads 0
bad --threads ""
bad --block 4q
bad --block 1000
bad --size -5
bad --ios 12abc
bad --seed 1.5
bad --runs 0
bad --runtime 5 --min-time 5 --threads 1 --ios 10
bad --runtime 50 --time-limit 40 --threads 1 --ios 10
bad --trace /nonexistent-dir/trace.txt --threads 1 --ios 10
bad --dirty-kb 4
bad --dirty-bg-kb 1024
bad --flusher-us 100
bad --copy-mbs 100
bad --dirty-kb 8192 --copy-mbs 1000001
bad --dirty-kb 8192 --copy-mbs 12.5
bad --wb-bw-init 102400
bad --start-us 10000001
bad --start-us -1
bad --start-us 1ms
bad --region-align 0
bad --region-align 1000
bad --region-align 128m --size 64m
bad --interleave --workload randread --readahead 0
bad --interleave --workload seqread,read-vs-write --readahead 0
bad --interleave --workload seqread
bad --late-us 1000001
bad --late-us 0:5,50:4,100:6
bad --late-us 5:5,100:6
bad --dirty-kb 8192 --wb-bw-init 3
bad --dirty-kb 8192 --wb-bw-init 1024,,2048
bad --dirty-kb 8192 --wb-bw-init 1.5
bad --think 0:5
bad --think 0:5,50
bad --think 1:5,100:6
bad --think 0:5,100:4
bad --think 0:5,60:6,40:7,100:8
bad --think 0:5,101:5
bad --think 0:5,100.5:5
bad --think 0:5,99.12345:6,100:7
bad --think 0:5,.5:6,100:7
bad --tag-wake-us 0:5,100:2000000
bad --tag-wake-us 0:5,,100:5
bad --tag-wake-batch 9
bad --tag-wake-batch 4294967297
bad --tune nosuch=1
bad --tune read_expire=abc
bad --tune read_expire=-1 --sched deadline-read
bad --dev rpm=1
bad --dev nosuch=3
bad --dev rpm
bad --prio xx
bad --bg sometimes
bad --requeue 101
bad --requeue-us 1000001
bad --requeue-us -1
bad --requeue-dontprep=1
bad --frobnicate
# a flag given a value is told apart from an unknown option
case $("$sim" --requeue-dontprep=1 2>&1 >/dev/null) in
*"--requeue-dontprep takes no value"*) echo "ok: --requeue-dontprep=1 -> takes no value" ;;
*) echo "FAIL: --requeue-dontprep=1 not reported as a flag given a value"; fail=1 ;;
esac
bad extra-argument
exit $fail
