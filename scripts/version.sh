#!/bin/sh
# Print elvkit's version, read from its single source, include/elvkit/version.h.
sed -n 's/^#define ELVKIT_VERSION "\(.*\)"/\1/p' "$(dirname "$0")/../include/elvkit/version.h"
