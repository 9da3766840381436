// SPDX-License-Identifier: GPL-2.0
/*
 * Executes the marker instruction that makes insnprof.c (a QEMU plugin)
 * write the guest instructions counted since the previous marker: the
 * guest side of bench-overhead.sh --profile. xchg %bx,%bx changes nothing.
 */
int main(void)
{
	__asm__ volatile("xchg %%bx, %%bx" ::: "memory");
	return 0;
}
