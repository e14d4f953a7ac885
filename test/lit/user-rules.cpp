// User rules files extend the shipped rules; a malformed one is a clear
// error and a nonzero exit, never a crash or a silent skip.
//
// RUN: %clang_tidy --checks='-*,lockstep-rank-branch' --config="{CheckOptions: {RuleFiles: '%S/Inputs/user-rules.json'}}" %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
// RUN: not %clang_tidy --checks='-*,lockstep-rank-branch' --config="{CheckOptions: {RuleFiles: '%S/Inputs/bad-rules.json'}}" %s -- %cxx_flags 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// RUN: not %clang_tidy --checks='-*,lockstep-rank-branch' --config="{CheckOptions: {RuleFiles: '%S/Inputs/missing.json'}}" %s -- %cxx_flags 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// RUN: not %clang_tidy --checks='-*,lockstep-rank-branch' --config="{CheckOptions: {RankNamePattern: '(unclosed'}}" %s -- %cxx_flags 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PATTERN
// RUN: not %clang_tidy --checks='-*,lockstep-rank-branch' %S/Inputs/unparsable.cpp -- %cxx_flags 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNPARSABLE

// BAD: error: lockstep cannot load its rules: {{.*}}bad-rules.json: collectives[0] ('sync_all'): args: key 'comm': expected an argument index, "receiver" or "<index>.<field>", found "first" [clang-tidy-config]
// MISSING: error: lockstep cannot load its rules: {{.*}}missing.json: cannot open the rules file
// PATTERN: error: lockstep cannot load its rules: option 'RankNamePattern': invalid regular expression
// UNPARSABLE: unparsable.cpp:{{[0-9]+}}:{{[0-9]+}}: error:

void sync_all();
int my_rank;

void user_collective() {
  if (my_rank == 0)
    sync_all();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'sync_all' runs only on ranks where 'my_rank == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'my_rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: 'my_rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'sync_all' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the same call under a value whose name does not match the rank
// pattern, and under a condition every rank evaluates alike.
int my_step;
void user_collective_uniform(int epochs) {
  if (my_step == 0)
    sync_all();
  if (epochs > 1)
    sync_all();
}

double read_sensor();
void write_log(double);

void user_per_rank_source() {
  if (read_sensor() > 80.0)
    sync_all();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'sync_all' runs only on ranks where 'read_sensor() > 80.0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'read_sensor() > 80.0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'read_sensor' returns a sensor reading here; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'sync_all' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the reading is only logged.
void user_per_rank_source_logged() {
  write_log(read_sensor());
  sync_all();
}

// Negative: the same test on a function the rules do not name per-rank.
double read_setting();
void user_uniform_source() {
  if (read_setting() > 80.0)
    sync_all();
}
