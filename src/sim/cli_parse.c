// SPDX-License-Identifier: GPL-2.0
/*
 * Parse: command-line strings to values in struct cli_args. The form is
 * checked here (a number is a number), and so is a number's fixed range
 * (cli_range), while it is still 64 bits wide: no option's number is cut to
 * its field's width, made signed or multiplied into a unit before that.
 * Ranges that depend on other options, and names, are for cli_validate.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

void cli_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "elvkit-sim: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

uint64_t cli_num(const char *opt, const char *s, int sized)
{
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	if (!*s || *s == '-' || *s == '+')
		cli_die("%s: malformed number '%s'", opt, s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		cli_die("%s: malformed number '%s'", opt, s);
	if (sized && *end) {
		switch (*end | 0x20) {
		case 'k': mult = 1ULL << 10; break;
		case 'm': mult = 1ULL << 20; break;
		case 'g': mult = 1ULL << 30; break;
		case 't': mult = 1ULL << 40; break;
		default: cli_die("%s: malformed size '%s'", opt, s);
		}
		end++;
		if ((*end | 0x20) == 'b' || (*end | 0x20) == 'i')
			end += ((*end | 0x20) == 'i' && (end[1] | 0x20) == 'b') ? 2 : 1;
	}
	if (*end)
		cli_die("%s: malformed number '%s'", opt, s);
	if (v > UINT64_MAX / mult)
		cli_die("%s: number too large '%s'", opt, s);
	return v * mult;
}

/* One rule for every option with a fixed range: MIN..MAX, checked before any conversion. */
uint64_t cli_range(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	uint64_t v = cli_num(opt, s, 0);

	if (v < min || v > max)
		cli_die("%s must be %llu..%llu, got '%s'", opt, (unsigned long long)min,
			(unsigned long long)max, s);
	return v;
}

size_t cli_split(char *s, char **out, size_t max, const char *opt)
{
	size_t n = 0;

	if (!*s)
		cli_die("%s: empty list", opt);
	for (;;) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = 0;
		if (!*s)
			cli_die("%s: empty entry in the list", opt);
		if (n == max)
			cli_die("%s: too many entries (max %zu)", opt, max);
		out[n++] = s;
		if (!comma)
			return n;
		s = comma + 1;
	}
}

/*
 * PCT, 0..100 with up to four decimals ("99.996"), in parts per million:
 * a late completion's tail lies beyond 99.99 %.
 */
static uint32_t parse_pct(const char *opt, char *s)
{
	static const uint64_t scale[] = { 0, 1000, 100, 10, 1 };
	char *dot = strchr(s, '.');
	uint64_t whole, frac = 0;
	size_t digits = 0;

	if (dot) {
		digits = strlen(dot + 1);
		if (dot == s || !digits || digits > 4)
			cli_die("%s: PCT '%s' is not 0..100 with at most four decimals", opt, s);
		frac = cli_num(opt, dot + 1, 0) * scale[digits];
		*dot = 0;
	}
	whole = cli_num(opt, s, 0);
	if (whole > 100 || (whole == 100 && frac))
		cli_die("%s: PCT must be 0..100 and US 0..1000000", opt);
	return (uint32_t)(whole * 10000 + frac);
}

/*
 * --think, --tag-wake-us, --late-us: a number (us, 0..CLI_MAX_US), or
 * "PCT:US,..." into d, the points of a quantile function (cli_validate.c
 * checks them and sets the option's number to their mean).
 */
static int64_t parse_delay(const char *opt, char *s, struct sim_delay *d)
{
	char *pts[SIM_DELAY_POINTS];
	size_t i;

	d->n = 0;
	if (!strchr(s, ':'))
		return (int64_t)cli_range(opt, s, 0, CLI_MAX_US);
	d->n = (unsigned)cli_split(s, pts, SIM_DELAY_POINTS, opt);
	for (i = 0; i < d->n; i++) {
		char *colon = strchr(pts[i], ':');
		uint64_t us;

		if (!colon)
			cli_die("%s: '%s' is not PCT:US", opt, pts[i]);
		*colon = 0;
		d->ppm[i] = parse_pct(opt, pts[i]);
		us = cli_num(opt, colon + 1, 0);
		if (us > CLI_MAX_US)
			cli_die("%s: PCT must be 0..100 and US 0..1000000", opt);
		d->us[i] = (uint32_t)us;
	}
	return 0;
}

/* A time option: S (unit_ns 10^9) or MS (10^6), at most CLI_MAX_S seconds, in ns. */
static uint64_t parse_ns(const char *opt, const char *s, uint64_t min, uint64_t unit_ns)
{
	return cli_range(opt, s, min, CLI_MAX_S * (1000000000ULL / unit_ns)) * unit_ns;
}

static struct sim_prio parse_prio(const char *opt, const char *s)
{
	struct sim_prio p = { EK_PRIO_BE, 4 };
	const char *lvl = strchr(s, ':');
	size_t len = lvl ? (size_t)(lvl - s) : strlen(s);

	if (len == 2 && !strncmp(s, "rt", 2))
		p.cls = EK_PRIO_RT;
	else if (len == 2 && !strncmp(s, "be", 2))
		p.cls = EK_PRIO_BE;
	else if (len == 4 && !strncmp(s, "idle", 4))
		p.cls = EK_PRIO_IDLE;
	else
		cli_die("%s: unknown priority class in '%s' (rt, be, idle)", opt, s);
	if (lvl) {
		uint64_t v = cli_num(opt, lvl + 1, 0);

		if (v > 7)
			cli_die("%s: priority level must be 0..7: '%s'", opt, s);
		p.lvl = (uint8_t)v;
	} else {
		p.lvl = p.cls == EK_PRIO_IDLE ? 7 : 4;
	}
	return p;
}

static struct cli_kv parse_kv(const char *opt, char *s)
{
	struct cli_kv kv;
	char *eq = strchr(s, '=');
	uint64_t mag;
	int neg = 0;

	if (!eq || eq == s)
		cli_die("%s: expected NAME=VALUE, got '%s'", opt, s);
	*eq = 0;
	kv.name = s;
	if (eq[1] == '-') {
		neg = 1;
		eq++;
	}
	mag = cli_num(opt, eq + 1, 0);
	if (mag > INT64_MAX)
		cli_die("%s: %s=%s%s is out of range", opt, s, neg ? "-" : "", eq + 1);
	kv.value = neg ? -(ek_s64)mag : (ek_s64)mag;
	return kv;
}

static void add_kv(struct cli_kv *v, size_t *n, const char *opt, char *s)
{
	if (*n == CLI_MAX_KV)
		cli_die("%s: too many", opt);
	v[(*n)++] = parse_kv(opt, s);
}

static int parse_bg(const char *s)
{
	if (!strcmp(s, "none"))
		return BG_NONE;
	if (!strcmp(s, "write"))
		return BG_WRITE;
	if (!strcmp(s, "read"))
		return BG_READ;
	cli_die("--bg: expected none, write or read, got '%s'", s);
}

static int parse_wbt(const char *s)
{
	if (!strcmp(s, "on"))
		return 1;
	if (!strcmp(s, "off"))
		return 0;
	if (!strcmp(s, "auto"))
		return -1;
	cli_die("--wbt: expected on, off or auto, got '%s'", s);
}

static void parse_prios(struct sim_config *c, char *s)
{
	char *ps[SIM_MAX_PRIO];
	size_t np = cli_split(s, ps, SIM_MAX_PRIO, "--prio"), k;

	for (k = 0; k < np; k++)
		c->prio[k] = parse_prio("--prio", ps[k]);
	c->nprio = (unsigned)np;
}

/* --wb-bw-init KIBPS[,KIBPS...]: one per run (seed), the last repeats */
static void parse_wb_bw(struct cli_args *a, char *s)
{
	char *vs[CLI_MAX_LIST];
	size_t k;

	a->nwb_bw = cli_split(s, vs, CLI_MAX_LIST, "--wb-bw-init");
	for (k = 0; k < a->nwb_bw; k++)
		a->wb_bw[k] = cli_range("--wb-bw-init", vs[k], 4, 1ULL << 30);
}

/*
 * getopt_long's "?": an unknown option, or a flag given a value
 * (--chart=1), which getopt reports alike; the reason says which.
 */
static void unknown_option(const struct option *opts, const char *o)
{
	const char *eq = strchr(o, '=');
	size_t len = eq && !strncmp(o, "--", 2) ? (size_t)(eq - o - 2) : 0;

	for (; len && opts->name; opts++)
		if (!opts->has_arg && strlen(opts->name) == len &&
		    !strncmp(opts->name, o + 2, len))
			cli_die("option --%s takes no value, got '%s' (see --help)",
				opts->name, o);
	cli_die("unknown option %s (see --help)", o);
}

static void defaults(struct cli_args *a)
{
	static char threads_default[] = "1,8,32,128,256", wl_default[] = "seqread";

	memset(a, 0, sizeof(*a));
	sim_config_init(&a->base);
	a->base.max_kb = 0;	/* default decided once --block is known */
	a->threads_arg = threads_default;
	a->wl_arg = wl_default;
	a->device = ek_models[0]->name;		/* the first model is the default */
	a->runs = 1;
	a->wall = 1;
	a->min_time_auto = 1;
}

enum cli_action cli_parse(int argc, char **argv, struct cli_args *a)
{
	static const struct option opts[] = {
		{ "sched", 1, 0, 's' }, { "device", 1, 0, 'd' }, { "dev", 1, 0, 'D' },
		{ "workload", 1, 0, 'w' }, { "threads", 1, 0, 't' }, { "block", 1, 0, 'b' },
		{ "size", 1, 0, 'S' }, { "region-align", 1, 0, 'a' }, { "ios", 1, 0, 'i' }, { "think", 1, 0, 'T' },
		{ "bg", 1, 0, 'g' }, { "bg-block", 1, 0, 'B' }, { "wdepth", 1, 0, 'W' },
		{ "dirty-kb", 1, 0, 'Y' }, { "dirty-bg-kb", 1, 0, 'Z' }, { "flusher-us", 1, 0, 'F' },
		{ "copy-mbs", 1, 0, 'C' }, { "wb-bw-init", 1, 0, 'G' },
		{ "prio", 1, 0, 'p' }, { "bg-prio", 1, 0, 'P' }, { "tune", 1, 0, 'u' },
		{ "nr-requests", 1, 0, 'n' }, { "max-kb", 1, 0, 'm' },
		{ "tag-wake-us", 1, 0, 'K' }, { "wbt-wake-us", 1, 0, 'k' },
		{ "tag-wake-batch", 1, 0, 'q' },
		{ "write-end-us", 1, 0, 'E' }, { "late-us", 1, 0, 'V' },
		{ "requeue", 1, 0, 'r' }, { "requeue-us", 1, 0, 'x' },
		{ "requeue-dontprep", 0, 0, 'z' }, { "startup-ios", 1, 0, 'I' },
		{ "warmup", 1, 0, 'U' }, { "start-us", 1, 0, 'H' }, { "time-limit", 1, 0, 'L' }, { "seed", 1, 0, 'e' },
		{ "runs", 1, 0, 'R' }, { "json", 1, 0, 'j' }, { "chart", 0, 0, 'c' },
		{ "trace", 1, 0, 'Q' }, { "runtime", 1, 0, 'J' },
		{ "no-wall", 0, 0, 'N' }, { "readahead", 1, 0, 'A' }, { "list", 0, 0, 'l' },
		{ "interleave", 0, 0, 'y' },
		{ "tunables", 1, 0, 'O' },
		{ "wbt", 1, 0, 'X' }, { "min-time", 1, 0, 'M' }, { "help", 0, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	struct sim_config *c = &a->base;
	enum cli_action act = CLI_RUN;
	int opt, nopt = 0;

	defaults(a);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		const char *o = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

		nopt++;
		switch (opt) {
		case 's': a->sched_arg = optarg; break;
		case 'd': a->device = optarg; break;
		case 'D': add_kv(a->devs, &a->ndev, "--dev", optarg); break;
		case 'w': a->wl_arg = optarg; break;
		case 't': a->threads_arg = optarg; break;
		case 'b': c->block = cli_num("--block", optarg, 1); break;
		case 'S': c->size = cli_num("--size", optarg, 1); break;
		case 'a': c->region_align = cli_num("--region-align", optarg, 1); break;
		case 'y': c->interleave = 1; break;
		case 'i': c->ios = cli_num("--ios", optarg, 0); break;
		case 'T': c->think_us = parse_delay("--think", optarg, &c->think_q); break;
		case 'g': c->bg = parse_bg(optarg); break;
		case 'A': c->readahead = cli_num("--readahead", optarg, 1); break;
		case 'B': c->bg_block = cli_num("--bg-block", optarg, 1); break;
		case 'W': c->wdepth = (unsigned)cli_range("--wdepth", optarg, 1, 65536); break;
		case 'Y': c->dirty_kb = cli_num("--dirty-kb", optarg, 0); break;
		case 'Z': c->dirty_bg_kb = cli_num("--dirty-bg-kb", optarg, 0); break;
		case 'F': c->flusher_us = cli_range("--flusher-us", optarg, 0, CLI_MAX_US); break;
		case 'C': c->copy_mbs = cli_range("--copy-mbs", optarg, 0, 1000000); break;
		case 'G': parse_wb_bw(a, optarg); break;
		case 'p': parse_prios(c, optarg); break;
		case 'P': c->bg_prio = parse_prio("--bg-prio", optarg); break;
		case 'u': add_kv(a->tunes, &a->ntune, "--tune", optarg); break;
		case 'n': c->nr_requests = (unsigned)cli_range("--nr-requests", optarg, 0, 1000000); break;
		case 'K': c->tag_wake_us = parse_delay("--tag-wake-us", optarg, &c->tag_wake_q); break;
		case 'k': c->wbt_wake_us = (int64_t)cli_range("--wbt-wake-us", optarg, 0, CLI_MAX_US); break;
		case 'q': c->tag_wake_batch = (unsigned)cli_range("--tag-wake-batch", optarg, 0, 8); break;
		case 'V': c->late_us = parse_delay("--late-us", optarg, &c->late_q); break;
		case 'E': c->write_end_us = cli_range("--write-end-us", optarg, 0, CLI_MAX_US); break;
		case 'X': c->wbt = parse_wbt(optarg); break;
		case 'M':
			a->min_time_auto = !strcmp(optarg, "auto");
			if (!a->min_time_auto)
				c->min_time_ns = parse_ns("--min-time", optarg, 0, 1000000000ULL);
			break;
		case 'm': c->max_kb = (unsigned)cli_range("--max-kb", optarg, 0, 65536); break;
		case 'r': c->requeue_pct = (unsigned)cli_range("--requeue", optarg, 0, 100); break;
		case 'x': c->requeue_us = cli_range("--requeue-us", optarg, 0, CLI_MAX_US); break;
		case 'z': c->requeue_dontprep = 1; break;
		case 'I': c->startup_ios = (unsigned)cli_range("--startup-ios", optarg, 1, 1000000); break;
		case 'H': c->start_us = cli_range("--start-us", optarg, 0, 10000000); break;
		case 'U': c->warmup_ns = parse_ns("--warmup", optarg, 0, 1000000ULL); break;
		case 'J': c->runtime_ns = parse_ns("--runtime", optarg, 0, 1000000000ULL); break;
		case 'L': c->time_limit_ns = parse_ns("--time-limit", optarg, 1, 1000000000ULL); break;
		case 'e': c->seed = cli_num("--seed", optarg, 0); break;
		case 'R': a->runs = (unsigned)cli_range("--runs", optarg, 1, 1000); break;
		case 'j': a->json = optarg; break;
		case 'Q': a->trace_path = optarg; break;
		case 'c': a->chart = 1; break;
		case 'N': a->wall = 0; break;
		case 'l': act = CLI_LIST; break;
		case 'O': a->tunables_of = optarg; act = CLI_TUNABLES; break;
		case 'h': return CLI_HELP;
		case ':': cli_die("option needs a value: %s (see --help)", o);
		default: unknown_option(opts, o);
		}
	}
	if (optind < argc)
		cli_die("unexpected argument '%s'", argv[optind]);
	/* --list and --tunables print and exit: nothing else would count */
	if (act != CLI_RUN && nopt > 1)
		cli_die("%s takes no other options", act == CLI_LIST ? "--list" : "--tunables");
	return act;
}
