/* DESCRIPTION: fair-queue: no read waits past the documented round bound; none over 2 s at N <= 16 threads, none over 10 s at N = 256 (seqread, randread, read-vs-write on hdd and ssd); one reader against a streaming writer: the writer keeps 15-35% of the bytes, reads wait <= 300 ms */
#include "fq_share.h"

#define MSEC 1000000ULL

static struct fs_share sh;

int main(void)
{
	static const char *const devs[] = { "hdd", "ssd" };
	static const char *const wls[] = { "seqread", "randread", "read-vs-write" };
	static const unsigned ns[] = { 1, 4, 16, 256 };
	struct sim_config c;
	struct sim_result r;
	unsigned d, w, i;
	double rd, wr;

	for (d = 0; d < 2; d++) {
		for (w = 0; w < 3; w++) {
			for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
				uint64_t lim = ns[i] <= 16 ? 2000 * MSEC : 10000 * MSEC;
				uint64_t b;

				st_config(&c, "fair-queue", devs[d], wls[w], ns[i]);
				c.size = 256ULL << 20;
				c.ios = 20000;
				st_run(&c, &r);
				b = fs_round_bound_ns(&c, ns[i] + (w == 2));
				printf("%s %s N=%u: max latency %.0f ms (limit %.0f, bound %.0f)\n",
				       devs[d], wls[w], ns[i], r.lat_max_ns / 1e6,
				       lim / 1e6, b / 1e6);
				CHECK(r.lat_max_ns <= lim, "%s %s N=%u: %.0f ms",
				      devs[d], wls[w], ns[i], r.lat_max_ns / 1e6);
				CHECK(r.lat_max_ns <= b, "%s %s N=%u: %.0f ms over the bound %.0f",
				      devs[d], wls[w], ns[i], r.lat_max_ns / 1e6, b / 1e6);
			}
		}
	}

	st_config(&c, "fair-queue", "hdd", "read-vs-write", 1);
	fs_run(&c, &sh, 10, &r);
	rd = sh.bytes[0];
	wr = sh.bytes[1];
	printf("hdd read-vs-write, 1 reader: writer share %.3f, reader max wait %.1f ms\n",
	       wr / (rd + wr), sh.max_wait[0] / 1e6);
	CHECK(wr / (rd + wr) >= 0.15 && wr / (rd + wr) <= 0.35,
	      "writer share %.3f outside 15-35%%", wr / (rd + wr));
	CHECK(sh.max_wait[0] <= 300 * MSEC, "a read waited %.1f ms",
	      sh.max_wait[0] / 1e6);
	return st_done();
}
