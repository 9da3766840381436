// SPDX-License-Identifier: GPL-2.0
/* The event queue: a binary min-heap ordered by (time, insertion order). */
#include <stdlib.h>
#include "sim_int.h"

static int ev_less(const struct event *a, const struct event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void heap_push(struct heap *h, uint64_t t, int type, void *p, uint64_t arg)
{
	size_t i;

	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 1024;
		h->ev = realloc(h->ev, h->cap * sizeof(*h->ev));
		if (!h->ev)
			abort();
	}
	i = h->n++;
	h->ev[i] = (struct event){ t, h->seq++, type, p, arg };
	while (i) {
		size_t up = (i - 1) / 2;
		struct event tmp;

		if (!ev_less(&h->ev[i], &h->ev[up]))
			break;
		tmp = h->ev[i];
		h->ev[i] = h->ev[up];
		h->ev[up] = tmp;
		i = up;
	}
}

int heap_pop(struct heap *h, struct event *out)
{
	size_t i = 0;

	if (!h->n)
		return 0;
	*out = h->ev[0];
	h->ev[0] = h->ev[--h->n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct event tmp;

		if (l < h->n && ev_less(&h->ev[l], &h->ev[m]))
			m = l;
		if (r < h->n && ev_less(&h->ev[r], &h->ev[m]))
			m = r;
		if (m == i)
			break;
		tmp = h->ev[i];
		h->ev[i] = h->ev[m];
		h->ev[m] = tmp;
		i = m;
	}
	return 1;
}

void heap_free(struct heap *h)
{
	free(h->ev);
	h->ev = NULL;
	h->n = h->cap = 0;
}

/* Take *pp (a link in q) out of q and run its thread at when (a wake-up). */
void waitq_wake_at(struct sim *s, struct waitq *q, struct sthread **pp, uint64_t when)
{
	struct sthread *t = *pp, *prev = NULL;

	if (pp != &q->head)
		prev = ek_container_of(pp, struct sthread, wnext);
	*pp = t->wnext;
	if (q->tail == t)
		q->tail = prev;
	t->wnext = NULL;
	t->waiting = 0;
	q->n--;
	heap_push(&s->heap, when, EV_THREAD, t, 0);
}

/*
 * --tag-wake-us, --wbt-wake-us: how long a task woken in the block layer
 * (for a request, or by wbt) takes to run and ask again, the CPU
 * scheduler's latency: drawn from q's points (a trace's), or random 0 to
 * twice the given mean (us; 0 or less: at once).
 */
uint64_t waitq_wake_delay(struct sim *s, int64_t mean_us, const struct sim_delay *q)
{
	uint64_t mean = mean_us > 0 ? (uint64_t)mean_us * 1000 : 0;

	if (q && q->n)
		return sim_delay_draw_ns(q, &s->rng);
	return mean ? sim_rand(&s->rng) % (2 * mean) : 0;
}

void waitq_wake(struct sim *s, struct waitq *q, struct sthread **pp)
{
	waitq_wake_at(s, q, pp, s->now);
}
