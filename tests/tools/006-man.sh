#!/bin/bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="man pages and README: elvkit(7) and README give unit, default and range of every scheduler's tunables as its policy table has them; ioschedctl(8) every command"
. "$(dirname "$0")/lib.sh"
M7=$TOP/admin/man/elvkit.7
M8=$TOP/admin/man/ioschedctl.8
command -v groff >/dev/null || command -v nroff >/dev/null || { echo "no groff"; exit 77; }
for m in "$M7" "$M8"; do
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -l "$m" 2>&1 >/dev/null | grep -v 'cannot adjust line')
	[ -z "$w" ] || fail "$(basename "$m"): $w"
done
# The README section "## NAME tunables" up to the next heading.
readme_section() { awk -v h="## $1 tunables" '$0 == h { p = 1; next } p && /^## / { exit } p' "$TOP/README.md"; }
txt7=$(MANWIDTH=200 man -l "$M7" 2>/dev/null | col -b | tr -s ' \n' ' ')
# Every scheduler module (src/modules/), against its policy's own table.
while read -r s; do
	printf '%s\n' "$txt7" | grep -q " $s " || fail "elvkit(7) does not describe $s"
	table=$("$TOP/build/elvkit-sim" --tunables "$s") || table=
	[ -n "$table" ] || fail "no tunable table for $s (build/elvkit-sim --tunables $s)"
	while read -r name def min max; do
		printf '%s\n' "$txt7" | grep -qE "$name .{0,200}default $def; range $min–$max\." ||
			fail "elvkit(7): $s $name lacks 'default $def; range $min–$max'"
		printf '%s\n' "$txt7" | grep -qE "$name .{0,200}(Unit [a-z]+|Boolean);" ||
			fail "elvkit(7): $s $name has no unit"
		grep -qF "| \`$name\` |" <<<"$(readme_section "$s")" ||
			fail "README: the $s tunables table lacks $name"
		grep -qE "^\| \`$name\` \| [^|]+ \| $def \| $min\.\.$max \|" <<<"$(readme_section "$s")" ||
			fail "README: $s $name is not '| $def | $min..$max |'"
	done <<<"$table"
done < <(sed -n 's/^EK_POLICY_MODULE([^,]*, *"\([^"]*\)".*/\1/p' "$TOP"/src/modules/*.c)
txt8=$(MANWIDTH=200 man -l "$M8" 2>/dev/null | col -b)
for c in list show set tune persist unpersist; do
	printf '%s\n' "$txt8" | grep -qE "^ +$c( |$)" || fail "ioschedctl(8) has no entry for $c"
	"$IOSCHEDCTL" "$c" --help >/dev/null || fail "$c --help"
done
done_test
