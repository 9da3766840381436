/* DESCRIPTION: host library: a sysfs store parses as kstrtoll(s, 10) does, out-of-range values are refused and the old value kept */
#include "testhost.h"

static const struct ek_tunable wide = {
	.name = "wide", .unit = "n", .help = "the whole s64 range",
	.def = 0, .min = -0x7fffffffffffffffLL - 1, .max = 0x7fffffffffffffffLL,
};

static void ok(const char *s, ek_s64 want)
{
	ek_s64 v = 12345;

	TH_CHECK(ek_tunable_parse(&wide, s, &v) == 0 && v == want,
		 "\"%s\" refused or read as %lld", s, (long long)v);
}

static void bad(const char *s)
{
	ek_s64 v = 12345;

	TH_CHECK(ek_tunable_parse(&wide, s, &v) == -EK_EINVAL && v == 12345,
		 "\"%s\" accepted", s);
}

int main(void)
{
	const struct ek_policy *pol = &ek_deadline_read_policy;
	int fb = ek_tunable_find(pol, "fifo_batch");
	ek_s64 values[EK_MAX_TUNABLES], v = 7;

	/* kstrtoll's syntax: one sign, digits, one trailing newline. */
	ok("0", 0);
	ok("125", 125);
	ok("125\n", 125);
	ok("+7", 7);
	ok("-7\n", -7);
	ok("-0", 0);
	ok("007", 7);
	ok("9223372036854775807", 0x7fffffffffffffffLL);
	ok("-9223372036854775808", -0x7fffffffffffffffLL - 1);
	bad("");
	bad("\n");
	bad("-");
	bad("+-1");
	bad("-+1");
	bad(" 1");
	bad("1 ");
	bad("1\n\n");
	bad("0x10");
	bad("1.5");
	bad("12a");
	bad("9223372036854775808");
	bad("-9223372036854775809");
	bad("99999999999999999999999");

	/* The tunable's range, inclusive. */
	TH_CHECK(fb >= 0, "no fifo_batch");
	TH_CHECK(ek_tunable_parse(&pol->tunables[fb], "0", &v) && v == 7,
		 "fifo_batch 0 accepted");
	TH_CHECK(!ek_tunable_parse(&pol->tunables[fb], "1000000\n", &v) &&
		 v == 1000000, "fifo_batch 1000000 refused");
	TH_CHECK(ek_tunable_parse(&pol->tunables[fb], "1000001", &v),
		 "fifo_batch 1000001 accepted");

	/* Lookup by name: tunables and counters apart. */
	TH_CHECK(ek_tunable_find(pol, "dispatched_reads") < 0 &&
		 ek_counter_find(pol, "dispatched_reads") >= 0 &&
		 ek_counter_find(pol, "fifo_batch") < 0 &&
		 ek_tunable_find(pol, "nonesuch") < 0, "lookup by name");

	/* set before the policy runs: values only, old value kept on refusal. */
	ek_tunables_default(pol, values);
	TH_CHECK(values[fb] == 16, "default fifo_batch %lld",
		 (long long)values[fb]);
	TH_CHECK(ek_tunable_set(pol, NULL, values, (ek_u32)fb, 0) == -EK_EINVAL &&
		 values[fb] == 16, "fifo_batch 0 stored");
	TH_CHECK(ek_tunable_set(pol, NULL, values, pol->nr_tunables, 1) ==
		 -EK_EINVAL, "index past the table accepted");
	TH_CHECK(!ek_tunable_set(pol, NULL, values, (ek_u32)fb, 8) &&
		 values[fb] == 8, "fifo_batch 8 not stored");
	return 0;
}
