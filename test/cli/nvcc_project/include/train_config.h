// Settings shared by the host and device code of the test project.
#pragma once

#define TRAIN_BLOCK 256

static_assert(TRAIN_DEMO == 1, "the compile definitions did not reach the compiler");
