/* SPDX-License-Identifier: GPL-2.0 */
/* The project's single version source; scripts and dkms.conf read it here. */
#ifndef ELVKIT_VERSION_H
#define ELVKIT_VERSION_H
#define ELVKIT_VERSION "0.1.0"
#endif
