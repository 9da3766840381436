// SPDX-License-Identifier: GPL-2.0
/*
 * hdd write cache: the set of dirty sectors, as disjoint extents sorted by
 * start sector in a fixed table (models allocate nothing). Adjacent and
 * overlapping writes coalesce, so a streaming writer's data is one extent
 * that destages as one sorted run. Rewriting cached sectors takes no new
 * room, as in a real cache.
 */
#include "hdd.h"

/* Index of the first extent ending after s (ndirty if none). */
static ek_u32 wc_first_after(const struct hdd *d, ek_u64 s)
{
	ek_u32 lo = 0, hi = d->ndirty;

	while (lo < hi) {
		ek_u32 mid = (lo + hi) / 2;

		if (d->dirty[mid].start + d->dirty[mid].len <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Sectors of [start, start + len) already dirty. */
static ek_u64 wc_overlap(const struct hdd *d, ek_u64 start, ek_u64 len)
{
	ek_u64 end = start + len, n = 0;
	ek_u32 i;

	for (i = wc_first_after(d, start); i < d->ndirty && d->dirty[i].start < end; i++) {
		ek_u64 s = ek_max_u64(start, d->dirty[i].start);
		ek_u64 e = ek_min_u64(end, d->dirty[i].start + d->dirty[i].len);

		n += e - s;
	}
	return n;
}

int hdd_wc_fits(const struct hdd *d, ek_u64 len)
{
	/* two slots spare: one for this write, one for a later split */
	return d->ndirty + 2 <= HDD_MAX_DIRTY && d->dirty_sectors + len <= d->wc_sectors;
}

void hdd_wc_add(struct hdd *d, ek_u64 start, ek_u64 len)
{
	ek_u64 end = start + len;
	ek_u32 i, j, k, gone;

	d->dirty_sectors += len - wc_overlap(d, start, len);
	/* extents that touch or overlap [start, end) merge into one at i */
	i = start ? wc_first_after(d, start - 1) : 0;
	for (j = i; j < d->ndirty && d->dirty[j].start <= end; j++) {
		start = ek_min_u64(start, d->dirty[j].start);
		end = ek_max_u64(end, d->dirty[j].start + d->dirty[j].len);
	}
	gone = j - i;	/* extents absorbed */
	if (!gone) {
		for (k = d->ndirty; k > i; k--)
			d->dirty[k] = d->dirty[k - 1];
		d->ndirty++;
	} else {
		for (k = i + 1; k + gone - 1 < d->ndirty; k++)
			d->dirty[k] = d->dirty[k + gone - 1];
		d->ndirty -= gone - 1;
	}
	d->dirty[i].start = start;
	d->dirty[i].len = end - start;
}

void hdd_wc_clean(struct hdd *d, ek_u64 start, ek_u64 len)
{
	ek_u64 end = start + len;
	ek_u32 i = wc_first_after(d, start), k;

	while (i < d->ndirty && d->dirty[i].start < end) {
		struct hdd_ext *x = &d->dirty[i];
		ek_u64 xe = x->start + x->len;

		if (x->start < start && xe > end) {
			/* the middle goes: split (a slot is always spare) */
			for (k = d->ndirty; k > i + 1; k--)
				d->dirty[k] = d->dirty[k - 1];
			d->ndirty++;
			d->dirty[i + 1].start = end;
			d->dirty[i + 1].len = xe - end;
			x->len = start - x->start;
			d->dirty_sectors -= len;
			return;
		}
		if (x->start < start) {		/* the tail goes */
			d->dirty_sectors -= xe - start;
			x->len = start - x->start;
			i++;
		} else if (xe > end) {		/* the head goes */
			d->dirty_sectors -= end - x->start;
			x->len = xe - end;
			x->start = end;
			i++;
		} else {			/* all of it */
			d->dirty_sectors -= x->len;
			for (k = i; k + 1 < d->ndirty; k++)
				d->dirty[k] = d->dirty[k + 1];
			d->ndirty--;
		}
	}
}
