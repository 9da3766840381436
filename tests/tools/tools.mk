# Host-side tests of the admin tools (ioschedctl) against a fake sysfs.
CHECK_USER += check-tools
.PHONY: check-tools
check-tools: $(BUILD)/elvkit-sim
	tests/tools/run.sh
