// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin for bench-overhead.sh --profile: counts the executions
 * of every guest translation block, and each time the guest executes the
 * marker instruction (xchg %bx,%bx, "66 87 db", a no-op; ek-mark.c)
 * writes OUT/prof-NNNN.txt: the blocks executed since the previous marker,
 * as "VADDR N_INSNS EXECUTIONS" lines. The file that the marker ending a
 * measured job writes holds what the job ran; symbolised against the
 * guest's /proc/kallsyms it is a per-function profile of the whole I/O
 * path, exact under -icount (the plugin adds no guest instructions).
 *
 * Built by make build/insnprof.so (scripts/insnprof.mk), for bench-overhead.sh.
 * Loaded with: -plugin PATH/insnprof.so,out=DIR
 *
 * QEMU's plugin API (version 1, QEMU 7.2) is declared here, the few calls
 * this uses, as Debian ships no header for it.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;

typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

enum { QEMU_PLUGIN_CB_NO_REGS };
enum { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      int op, void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    vcpu_udata_cb_t cb, int flags,
					    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* One per distinct (address, length) block; never freed, so the inline
 * counter's address stays valid for every translation of it. */
struct block {
	uint64_t vaddr;
	uint64_t n_insns;
	uint64_t execs;
	uint64_t dumped;		/* execs as of the last dump */
	struct block *next;		/* in its bucket */
	struct block *all_next;		/* in the list the dumps walk */
};

#define NR_BUCKETS (1u << 20)

static struct block **buckets;
static struct block *all;		/* every block, for the dumps */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *out_dir = ".";
static unsigned int nr_dumps;

static const unsigned char marker[] = { 0x66, 0x87, 0xdb };

static struct block *block_get(uint64_t vaddr, uint64_t n)
{
	uint64_t h = (vaddr * 0x9e3779b97f4a7c15ull ^ n) >> 44;
	struct block *b;

	for (b = buckets[h & (NR_BUCKETS - 1)]; b; b = b->next)
		if (b->vaddr == vaddr && b->n_insns == n)
			return b;
	b = calloc(1, sizeof(*b));
	if (!b)
		abort();
	b->vaddr = vaddr;
	b->n_insns = n;
	b->next = buckets[h & (NR_BUCKETS - 1)];
	buckets[h & (NR_BUCKETS - 1)] = b;
	b->all_next = all;
	all = b;
	return b;
}

static void dump(unsigned int vcpu, void *udata)
{
	struct block *b;
	char path[4096];
	FILE *f;

	(void)vcpu;
	(void)udata;
	pthread_mutex_lock(&lock);
	snprintf(path, sizeof(path), "%s/prof-%04u.txt", out_dir, ++nr_dumps);
	f = fopen(path, "w");
	if (f) {
		for (b = all; b; b = b->all_next) {
			if (b->execs == b->dumped)
				continue;
			fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
				b->vaddr, b->n_insns, b->execs - b->dumped);
			b->dumped = b->execs;
		}
		fclose(f);
	}
	pthread_mutex_unlock(&lock);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block *b;

	(void)id;
	pthread_mutex_lock(&lock);
	b = block_get(qemu_plugin_tb_vaddr(tb), n);
	pthread_mutex_unlock(&lock);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->execs, 1);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (qemu_plugin_insn_size(insn) == sizeof(marker) &&
		    !memcmp(qemu_plugin_insn_data(insn), marker, sizeof(marker)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, dump,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
	}
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_dir = argv[i] + 4;
	buckets = calloc(NR_BUCKETS, sizeof(*buckets));
	if (!buckets)
		return 1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	return 0;
}
