// Uneven inputs under the example join API (ddp_join.h): rank r has 5 + r
// batches. Check with the protocol's rules:
//   clang-tidy-22 --load=build/lib/liblockstep-tidy.so --checks='-*,lockstep-*' \
//     --config="{CheckOptions: {RuleFiles: 'examples/join/ddp_join.json'}}" \
//     examples/join/train_uneven.cpp -- -x c++ -std=c++17 -Itest/include -Iexamples/join
#include "ddp_join.h"

#include <cstdlib>

static std::vector<at::Tensor> load_batches(int rank) {
  return std::vector<at::Tensor>(5 + rank);
}

// Buggy: a barrier inside the join region that the protocol does not shadow
// (case 4 of the join/barrier thread): the rank that ran out of input shadows
// forward/backward only, and the job hangs.
void train_buggy(ddp::Model &model, int rank) {
  std::vector<at::Tensor> batches = load_batches(rank);
  ddp::Join join(model);
  for (const at::Tensor &batch : batches) {
    model.backward(model.forward(batch));
    model.group().barrier()->wait();
  }
}

// Fixed: the barrier waits until the join region has ended (case 6).
void train_fixed(ddp::Model &model, int rank) {
  {
    std::vector<at::Tensor> batches = load_batches(rank);
    ddp::Join join(model);
    for (const at::Tensor &batch : batches)
      model.backward(model.forward(batch));
  }
  model.group().barrier()->wait();
}

void train(ddp::Model &model) {
  int rank = std::atoi(std::getenv("RANK"));
  train_buggy(model, rank);
  train_fixed(model, rank);
}
