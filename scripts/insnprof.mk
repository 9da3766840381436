# bench-overhead.sh --profile's two helpers: the QEMU plugin that counts
# the guest's translation blocks, and the marker the guest runs around
# each measured job.
$(BUILD)/insnprof.so: scripts/lib/insnprof.c
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -O2 -shared -fPIC -fvisibility=hidden -o $@ $<

$(BUILD)/ek-mark: scripts/lib/ek-mark.c
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -O2 -o $@ $<
