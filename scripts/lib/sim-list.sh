# shellcheck shell=bash
# What the simulator can run, read from `elvkit-sim --list`: the one
# reading of its scheduler section, for the scripts and tests that go
# through every policy.

# sim_schedulers ELVKIT_SIM: the scheduler names, one per line.
sim_schedulers() {
	"$1" --list | sed -n '/^schedulers:/,/^devices/{/^  [^ ]/p}' | awk '{print $1}'
}
