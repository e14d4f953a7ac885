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
  // CHECK-MESSAGES: {{.*}}ddp_join.h:29:5: note: 'c10d::ProcessGroup::allreduce' is called here, inside 'ddp::Model::backward'
  // CHECK-MESSAGES: :[[@LINE-4]]:34: note: 'inputsFor(rank)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:35: note: parameter 'rank' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+96]]:35: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values), or run the loop under the join protocol 'ddp::Join', which shadows 'ddp::Model::backward'
  // CHECK-MESSAGES: :[[@LINE-7]]:20: warning: 'ddp::Model::forward' (which calls 'c10d::ProcessGroup::allreduce') runs in a loop whose trip count differs between ranks
  // CHECK-MESSAGES: {{.*}}ddp_join.h:22:5: note: 'c10d::ProcessGroup::allreduce' is called here, inside 'ddp::Model::forward'
  // CHECK-MESSAGES: :[[@LINE-10]]:34: note: 'inputsFor(rank)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-12]]:35: note: parameter 'rank' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+90]]:35: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-12]]:20: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values), or run the loop under the join protocol 'ddp::Join', which shadows 'ddp::Model::forward'
}

// Case 3: a barrier after the uneven loop pairs with rank 1's extra step.
void case3(ddp::Model &model, int rank) {
  for (const at::Tensor &input : inputsFor(rank))
    model.backward(model.forward(input));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ddp::Model::backward' (which calls 'c10d::ProcessGroup::allreduce') runs in a loop
  // CHECK-MESSAGES: {{.*}}ddp_join.h:29:5: note: 'c10d::ProcessGroup::allreduce' is called here, inside 'ddp::Model::backward'
  // CHECK-MESSAGES: :[[@LINE-4]]:34: note: 'inputsFor(rank)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:35: note: parameter 'rank' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+78]]:35: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values), or run the loop under the join protocol 'ddp::Join', which shadows 'ddp::Model::backward'
  // CHECK-MESSAGES: :[[@LINE-7]]:20: warning: 'ddp::Model::forward' (which calls 'c10d::ProcessGroup::allreduce') runs in a loop
  // CHECK-MESSAGES: {{.*}}ddp_join.h:22:5: note: 'c10d::ProcessGroup::allreduce' is called here, inside 'ddp::Model::forward'
  // CHECK-MESSAGES: :[[@LINE-10]]:34: note: 'inputsFor(rank)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-12]]:35: note: parameter 'rank' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+72]]:35: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-12]]:20: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values), or run the loop under the join protocol 'ddp::Join', which shadows 'ddp::Model::forward'
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
    // CHECK-MESSAGES: :[[@LINE-5]]:13: note: the join region of 'ddp::Join' starts here
    // CHECK-MESSAGES: :[[@LINE-5]]:34: note: 'inputs' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:35: note: parameter 'rank' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+56]]:35: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: move 'c10d::ProcessGroup::barrier' out of the join region (after it ends, every rank has joined), or list it in the protocol's 'shadows' if the protocol really shadows it
  }
}

// Case 5: a barrier in the uneven loop without a join.
void case5(ddp::Model &model, int rank) {
  for (const at::Tensor &input : inputsFor(rank)) {
    model.backward(model.forward(input));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ddp::Model::backward' (which calls 'c10d::ProcessGroup::allreduce') runs in a loop
    // CHECK-MESSAGES: {{.*}}ddp_join.h:29:5: note: 'c10d::ProcessGroup::allreduce' is called here, inside 'ddp::Model::backward'
    // CHECK-MESSAGES: :[[@LINE-4]]:34: note: 'inputsFor(rank)' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:35: note: parameter 'rank' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+43]]:35: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values), or run the loop under the join protocol 'ddp::Join', which shadows 'ddp::Model::backward'
    // CHECK-MESSAGES: :[[@LINE-7]]:20: warning: 'ddp::Model::forward' (which calls 'c10d::ProcessGroup::allreduce') runs in a loop
    // CHECK-MESSAGES: {{.*}}ddp_join.h:22:5: note: 'c10d::ProcessGroup::allreduce' is called here, inside 'ddp::Model::forward'
    // CHECK-MESSAGES: :[[@LINE-10]]:34: note: 'inputsFor(rank)' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-12]]:35: note: parameter 'rank' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+37]]:35: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-12]]:20: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values), or run the loop under the join protocol 'ddp::Join', which shadows 'ddp::Model::forward'
    model.group().barrier()->wait();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10d::ProcessGroup::barrier' runs in a loop whose trip count differs between ranks
    // CHECK-MESSAGES: :[[@LINE-16]]:34: note: 'inputsFor(rank)' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-18]]:35: note: parameter 'rank' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+31]]:35: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values){{$}}
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
  // CHECK-MESSAGES: :[[@LINE-5]]:13: note: the join region of 'ddp::Join' starts here
  // CHECK-MESSAGES: :[[@LINE-5]]:34: note: 'inputs' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:50: note: parameter 'rank' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+4]]:35: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: move 'c10d::ProcessGroup::barrier' out of the join region (after it ends, every rank has joined), or list it in the protocol's 'shadows' if the protocol really shadows it
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
