#!/bin/bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="ioschedctl: usage errors exit 2, --help works for every command"
. "$(dirname "$0")/lib.sh"
mkdev sda "[mq-deadline] none" 1

expect 2 "missing command" -- 
expect 2 "unknown command" -- frobnicate
expect 0 "^Usage: ioschedctl COMMAND" -- --help
expect 0 "^Usage: ioschedctl COMMAND" -- help
expect 0 "ioschedctl \(elvkit\) [0-9]" -- --version
for c in list show set tune persist unpersist; do
	expect 0 "^Usage: ioschedctl $c" -- "$c" --help
	expect 0 "^Usage: ioschedctl $c" -- help "$c"
done
expect 2 "takes no arguments" -- list sda
expect 2 "exactly one device" -- show
expect 2 "exactly one device" -- show sda sdb
expect 2 "needs a device" -- set sda
expect 2 "needs a device" -- set sda a b
expect 2 "invalid scheduler name" -- set sda 'bad/name'
expect 2 "at least one" -- tune sda
expect 2 "expected KEY=VALUE" -- tune sda read_expire
expect 2 "invalid tunable name" -- tune sda '../x=1'
expect 2 "invalid value" -- tune sda 'read_expire='
expect 2 "invalid value" -- tune sda 'read_expire=1 2'
expect 2 "invalid value for read_expire: 'abc' \(tunables are integers\)" -- tune sda read_expire=abc
expect 2 "needs a device" -- persist sda
expect 2 "exactly one scheduler" -- persist --rotational a b
expect 2 "unknown option" -- persist --bogus x
expect 2 "expected KEY=VALUE" -- persist sda mq-deadline oops
expect 2 "unpersist takes one" -- unpersist
# An option where a device goes is an unknown option, not a missing device;
# extra words after --version or help are usage errors, not ignored.
expect 2 "unknown option: --bogus \(try 'ioschedctl show --help'\)" -- show --bogus
expect 2 "unknown option: -x" -- set -x mq-deadline
expect 2 "unknown option: --bogus" -- tune --bogus read_expire=1
expect 2 "--version takes no arguments" -- --version foo
expect 2 "help takes at most one command" -- help list extra
expect 2 "unknown command" -- help frobnicate
expect 0 "^Usage: ioschedctl list" -- --help list
expect 2 "unknown option" -- unpersist --bogus
# usage errors say how to get help, on stderr only
run set sda
[ -z "$OUT" ] || fail "usage error printed on stdout: $OUT"
printf '%s\n' "$ERR" | grep -q "(try 'ioschedctl set --help')" || fail "no help hint: $ERR"
done_test
