/* DESCRIPTION: wbt at time 0 (the kernel's clocks never are 0): the first read issued then is the one watched, and a window that ends with it still out ends as "a read out too long"; a read issued then keeps buffered writes to wb_background for 100 ms */
#include "simtest.h"
#include "sim_int.h"

#define MS 1000000ULL

static struct sim_config cfg;
static struct sim_result res;
static struct sim s;

/* The host's wbt alone, as wbt_init() sets it up on a rotational disk. */
static void setup(void)
{
	memset(&s, 0, sizeof(s));
	memset(&res, 0, sizeof(res));
	sim_config_init(&cfg);
	cfg.wbt = 1;
	s.cfg = &cfg;
	s.res = &res;
	s.pol = sim_find_policy("noop");
	s.host.dev.rotational = 1;
	s.qd = 32;
	wbt_init(&s);
}

int main(void)
{
	struct srq first = { .rq.dir = EK_READ }, second = { .rq.dir = EK_READ };
	struct sthread writer = { .sync = 0 };
	struct sbio write = { .dir = EK_WRITE, .t = &writer };

	setup();
	CHECK(s.wbt.enabled, "wbt is off");
	wbt_rq_issue(&s, &first);

	/* a window open since 0 ends at 150 ms with that read, alone, still out */
	s.wbt.timer_active = 1;
	s.wbt.timer_gen = 1;
	s.wbt.rd_min = UINT64_MAX;
	s.now = 150 * MS;
	wbt_timer(&s, 1);
	CHECK(res.wbt_windows[WBT_WIN_EXCEEDED_ISSUE] == 1,
	      "the window did not end as a read out too long (%llu, %llu unknown)",
	      (unsigned long long)res.wbt_windows[WBT_WIN_EXCEEDED_ISSUE],
	      (unsigned long long)res.wbt_windows[WBT_WIN_UNKNOWN]);

	/* a later read does not take the watch */
	s.now = 151 * MS;
	wbt_rq_issue(&s, &second);
	CHECK(s.wbt.sync_cookie == &first, "the read issued at 0 is not the one watched");
	heap_free(&s.heap);

	/* close_io(): a read issued at 0 makes 50 ms later a time to hold writes back */
	setup();
	wbt_read_issue(&s);
	s.now = 50 * MS;
	s.wbt.inflight = s.wbt.wb_background;
	CHECK(s.wbt.wb_background < s.wbt.wb_normal, "no room between the limits (%u, %u)",
	      s.wbt.wb_background, s.wbt.wb_normal);
	CHECK(!wbt_throttle(&s, &write) && res.wbt_waits == 1,
	      "a write went past wb_background (%u in flight) 50 ms after a read", s.wbt.inflight);
	heap_free(&s.heap);
	return st_failed;
}
