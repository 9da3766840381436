/* DESCRIPTION: hdd write cache: writes complete at interface speed, a FUA write waits for the media, a flush waits until every cached write is on the platter; wce=0 writes wait for the media */
#include "model_drive.h"

static uint64_t one(struct md_dev *d, struct ek_mrq *r, uint64_t sector, uint32_t nr,
		    uint8_t dir, uint8_t flags)
{
	uint64_t t0 = d->now;

	memset(r, 0, sizeof(*r));
	r->sector = sector;
	r->nr_sectors = nr;
	r->dir = dir;
	r->flags = flags;
	r->tag = r;
	d->type->submit(d->state, r, d->now);
	return md_wait(d, r) - t0;
}

int main(void)
{
	struct md_dev d;
	struct ek_mrq r;
	uint64_t cached, fua, flush, nocache, media_min;
	double bus;
	int i;

	md_open(&d, "hdd");
	md_start(&d);
	bus = (double)*md_param(&d, "bus_mbs") * 1e6;
	/* 1 MiB into the cache: write_us + 1 MiB at the interface rate */
	cached = one(&d, &r, 1000000, 2048, 1, 0);
	printf("cached 1 MiB write: %.3f ms (interface: %.3f ms)\n", cached / 1e6,
	       (*md_param(&d, "write_us") * 1e3 + 1048576 / bus * 1e9) / 1e6);
	CHECK(cached < 1.1 * (*md_param(&d, "write_us") * 1e3 + 1048576 / bus * 1e9),
	      "cached write took %.3f ms", cached / 1e6);
	/* more cached writes far apart, then a flush: it must write them all */
	for (i = 0; i < 8; i++)
		one(&d, &r, 50000000ULL * (i + 1), 256, 1, 0);
	flush = one(&d, &r, 0, 0, 1, EK_MRQ_FLUSH);
	/* 9 scattered runs: each at least a track-to-track seek */
	media_min = 9 * (uint64_t)*md_param(&d, "t2t_us") * 1000;
	printf("flush after 9 scattered cached writes: %.3f ms (at least %.3f ms)\n", flush / 1e6,
	       media_min / 1e6);
	CHECK(flush >= media_min, "flush returned before the cache was written back");
	/* with nothing dirty, a flush is quick */
	flush = one(&d, &r, 0, 0, 1, EK_MRQ_FLUSH);
	CHECK(flush < 1000000, "empty flush took %.3f ms", flush / 1e6);
	/* FUA: a far write goes to the media, seek and rotation included */
	fua = one(&d, &r, 1500000000ULL, 8, 1, EK_MRQ_FUA);
	printf("FUA 4k write across the disk: %.3f ms\n", fua / 1e6);
	CHECK(fua > (uint64_t)*md_param(&d, "avg_seek_us") * 1000 / 2, "FUA write took %.3f ms",
	      fua / 1e6);
	md_close(&d);

	md_open(&d, "hdd");
	*md_param(&d, "wce") = 0;
	md_start(&d);
	nocache = one(&d, &r, 1500000000ULL, 8, 1, 0);
	printf("wce=0 4k write across the disk: %.3f ms\n", nocache / 1e6);
	CHECK(nocache > (uint64_t)*md_param(&d, "avg_seek_us") * 1000 / 2, "wce=0 write took %.3f ms",
	      nocache / 1e6);
	md_close(&d);
	return st_done();
}
