# shellcheck shell=bash
# dkms_modules RELEASE: the modules DKMS installs for elvkit, one per line,
# read from dkms.conf the way dkms reads it. Run from the top of the tree.
dkms_modules() {
	kernelver=$1 bash -c '. ./dkms.conf; printf "%s\n" "${BUILT_MODULE_NAME[@]}"'
}
