// SPDX-License-Identifier: GPL-2.0
/* ek_models[]: every model of model_list.h. Host-independent. */
#include "model.h"

#define EK_MODEL_ENTRY(sym) &EK_MODEL_SYM(sym),

const struct ek_model_type *const ek_models[] = {
	EK_MODEL_LIST(EK_MODEL_ENTRY)
	EK_NULL,
};
