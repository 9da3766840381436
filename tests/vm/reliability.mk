# The reliability suite at full size (scripts/reliability.sh): one boot per
# kernel. REL_KVERS="R1 R2" picks kernels (default every installed leg);
# ELVKIT_REL_SCALE sizes it (default 10). Not part of `make check`, whose guest
# boots run the same tests at CI size.
.PHONY: check-reliability
check-reliability:
	scripts/reliability.sh $(REL_KVERS)
