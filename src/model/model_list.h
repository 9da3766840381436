/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every device model: the one list. Adding a model is one line here plus
 * its source in src/model/ (the build picks up every .c file in src/model/). The
 * simulator (--device, --list, --help) and its cost harness are built from
 * this list through ek_models[] (model_table.c).
 *
 * EK_MODEL_LIST(X) calls X(sym) per model, where the model's source defines
 * `const struct ek_model_type ek_model_<sym>`. The first one is the
 * simulator's default device.
 */
#ifndef ELVKIT_MODEL_LIST_H
#define ELVKIT_MODEL_LIST_H

#define EK_MODEL_LIST(X)	\
	X(hdd)			\
	X(hdd_laptop)		\
	X(hdd_2002)		\
	X(ssd)			\
	X(null)			\
	/* one line per model above; every line ends in a backslash */

#endif
