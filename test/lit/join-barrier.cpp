// RUN: %clang_tidy --checks='-*,lockstep-*' \
// RUN:   --config="{CheckOptions: {RuleFiles: '%S/../../examples/join/ddp_join.json'}}" \
// RUN:   %s -- %cxx_flags -I%S/../../examples/join 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// lockstep-join-barrier with the example join API of examples/join: the six
// cases of seed 001 (rank 1 has one more input than rank 0), in C++.
#include "ddp_join.h"

constexpr int NumInputs = 5;

std::vector<at::Tensor> inputsFor(int rank) { return std::vector<at::Tensor>(NumInputs + rank); }

// Case 1: the join region shadows forward and backward: both ranks finish.
void case1(ddp::Model &model, int rank) {
  std::vector<at::Tensor> inputs = inputsFor(rank);
  ddp::Join join(model);
  for (const at::Tensor &input : inputs)
    model.backward(model.forward(input));
}

// Case 2: no join: rank 1's extra step has no partner.
void case2(ddp::Model &model, int rank) {
  for (const at::Tensor &input : inputsFor(rank))
    model.backward(model.forward(input));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ddp::Model::backward' (which calls 'c10d::ProcessGroup::allreduce') runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: 'ddp::Model::forward' (which calls 'c10d::ProcessGroup::allreduce') runs in a loop whose trip count differs between ranks
}

// Case 3: a barrier after the uneven loop pairs with rank 1's extra step.
void case3(ddp::Model &model, int rank) {
  for (const at::Tensor &input : inputsFor(rank))
    model.backward(model.forward(input));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ddp::Model::backward' (which calls 'c10d::ProcessGroup::allreduce') runs in a loop
  // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: 'ddp::Model::forward' (which calls 'c10d::ProcessGroup::allreduce') runs in a loop
  model.group().barrier()->wait();
}

// Case 4: a barrier inside the join region that the protocol does not shadow.
void case4(ddp::Model &model, int rank) {
  std::vector<at::Tensor> inputs = inputsFor(rank);
  ddp::Join join(model);
  for (const at::Tensor &input : inputs) {
    model.backward(model.forward(input));
    model.group().barrier()->wait();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10d::ProcessGroup::barrier' runs in the uneven loop inside the join region of 'ddp::Join', which does not shadow it; ranks that run out of input first shadow only 'ddp::Model::forward' and 'ddp::Model::backward', so their shadow collectives pair with this one and the ranks fall out of step [lockstep-join-barrier]
    // CHECK-MESSAGES: :42:13: note: the join region of 'ddp::Join' starts here
    // CHECK-MESSAGES: :43:34: note: 'inputs' differs between ranks
    // CHECK-MESSAGES: :40:35: note: parameter 'rank' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: move 'c10d::ProcessGroup::barrier' out of the join region (after it ends, every rank has joined), or list it in the protocol's 'shadows' if the protocol really shadows it
  }
}

// Case 5: a barrier in the uneven loop without a join.
void case5(ddp::Model &model, int rank) {
  for (const at::Tensor &input : inputsFor(rank)) {
    model.backward(model.forward(input));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ddp::Model::backward' (which calls 'c10d::ProcessGroup::allreduce') runs in a loop
    // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: 'ddp::Model::forward' (which calls 'c10d::ProcessGroup::allreduce') runs in a loop
    model.group().barrier()->wait();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10d::ProcessGroup::barrier' runs in a loop whose trip count differs between ranks
  }
}

// Case 6: the barrier after the join region ends: every rank has joined.
void case6(ddp::Model &model, int rank) {
  {
    std::vector<at::Tensor> inputs = inputsFor(rank);
    ddp::Join join(model);
    for (const at::Tensor &input : inputs)
      model.backward(model.forward(input));
  }
  model.group().barrier()->wait();
}

// A barrier after the loop but still inside the region misaligns as well.
void after_loop_in_region(ddp::Model &model, int rank) {
  std::vector<at::Tensor> inputs = inputsFor(rank);
  ddp::Join join(model);
  for (const at::Tensor &input : inputs)
    model.backward(model.forward(input));
  model.group().barrier()->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'c10d::ProcessGroup::barrier' runs after the uneven loop inside the join region of 'ddp::Join'
}

void train(ddp::Model &model, int rank) {
  case1(model, rank);
  case2(model, rank);
  case3(model, rank);
  case4(model, rank);
  case5(model, rank);
  case6(model, rank);
  after_loop_in_region(model, rank);
}
