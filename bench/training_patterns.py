"""Training-step code patterns shared by the benchmark generators
(bench/checker/generate.py, bench/project/generate.py): helpers that
synchronise, compute or log, and training steps that are buggy (marked
`// bug[kind]`) or correct, in the shapes lockstep must tell apart.

A generator mixes in TrainingPatterns and provides: rng, by_role (role ->
indices of its functions), names (index -> name), called (a set), and
bug(kind), called for every seeded bug."""

# The types and helpers the generated steps use; {linkage} is "static" in a
# single file, "inline" in a shared header.
TRAINER_TYPES = """\
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct TrainerState {{
  MPI_Comm comm;
  int rank;       // this process's rank in comm
  int world;
  int local_rank; // rank within the node
  int step;
  std::vector<float> params;
  std::vector<float> grads;
}};

struct ShardInfo {{
  int owner_rank; // the rank that owns the shard
  int begin;
  int count;
}};

{linkage} int world_rank(MPI_Comm comm) {{
  int r;
  MPI_Comm_rank(comm, &r);
  return r;
}}

{linkage} int world_size(MPI_Comm comm) {{
  int s;
  MPI_Comm_size(comm, &s);
  return s;
}}
"""

ROLES = [
    ("sync", 13),   # void fI(MPI_Comm comm, float *buf, int n)     collective
    ("pure", 12),   # double fI(const float *p, int n)              no collective
    ("rlog", 5),    # void fI(MPI_Comm comm, int who, int step)     rank param
    ("step", 60),   # void fI(TrainerState &st, int step)
    ("orch", 10),   # void fI(TrainerState &st, int step)           calls steps
]

SIGS = {
    "sync": "void {name}(MPI_Comm comm, float *buf, int n)",
    "pure": "double {name}(const float *p, int n)",
    "rlog": "void {name}(MPI_Comm comm, int who, int step)",
    "step": "void {name}(TrainerState &st, int step)",
    "orch": "void {name}(TrainerState &st, int step)",
}


class TrainingPatterns:
    def _pick_role(self, i):
        if i < 4:  # every caller finds helpers early on
            return ["sync", "pure", "sync", "rlog"][i]
        total = sum(w for _, w in ROLES)
        x = self.rng.uniform(0, total)
        for r, w in ROLES:
            x -= w
            if x <= 0:
                return r
        return ROLES[-1][0]

    def callee(self, i, role, forward_ok=True):
        cands = self.by_role[role]
        leaf = role in ("sync", "pure", "rlog")
        earlier = [j for j in cands if j < i]
        if forward_ok and leaf and self.rng.random() < 0.10:
            later = [j for j in cands if j > i]
            if later:
                return self.rng.choice(later[:50])
        if not earlier:
            return None
        if self.rng.random() < 0.75:
            return self.rng.choice(earlier[-20:])
        return self.rng.choice(earlier)

    def call(self, i, role, args, forward_ok=True):
        j = self.callee(i, role, forward_ok)
        if j is None:
            return None
        self.called.add(j)
        return "%s(%s)" % (self.names[j], args)

    def sync_call(self, i, buf="st.grads.data()", n="(int)st.grads.size()", comm="st.comm"):
        c = self.call(i, "sync", "%s, %s, %s" % (comm, buf, n))
        return c or "MPI_Allreduce(MPI_IN_PLACE, %s, %s, MPI_FLOAT, MPI_SUM, %s)" % (buf, n, comm)

    def pure_call(self, i, p="st.params.data()", n="(int)st.params.size()"):
        c = self.call(i, "pure", "%s, %s" % (p, n))
        return c or "0.0"

    def body_sync(self, i):
        v = self.rng.randrange(4)
        if v == 0:
            return ["MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, comm);"]
        if v == 1:
            return ["MPI_Bcast(buf, n, MPI_FLOAT, 0, comm);"]
        if v == 2:
            return ["float scale = 1.0f / (float)world_size(comm);",
                    "for (int k = 0; k < n; ++k)",
                    "  buf[k] *= scale;",
                    "MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, comm);"]
        lines = []
        c = self.call(i, "sync", "comm, buf, n", forward_ok=False)
        if c:
            lines.append(c + ";")
        lines.append("MPI_Barrier(comm);")
        return lines

    def body_pure(self, i):
        lines = ["double acc = 0.0;",
                 "for (int k = 0; k < n; ++k)",
                 "  acc += (double)p[k] * p[k];"]
        if self.rng.random() < 0.4:
            c = self.call(i, "pure", "p, n / 2", forward_ok=False)
            if c:
                lines.append("acc += 0.5 * %s;" % c)
        lines.append("return acc / (n > 0 ? n : 1);")
        return lines

    def body_rlog(self, i):
        if self.rng.random() < 0.3:
            self.bug("rlog")
            return ["if (who == 0 && step % 100 == 0)",
                    "  MPI_Barrier(comm); // bug[rlog]: only the rank passed as 0",
                    "std::printf(\"step %d on %d\\n\", step, who);"]
        return ["if (who == 0)",
                "  std::printf(\"step %d done\\n\", step);"]

    LOCAL_KINDS = [
        "branch_bug", "branch_ok", "balanced", "loop_bug", "loop_agreed",
        "loop_uniform", "exit_bug", "exit_ok", "implicit_bug", "arg_bug",
        "arg_ok", "switch_balanced", "switch_bug", "lambda_bug",
        "lambda_ok", "shard_ok", "shard_bug", "rlog_call",
    ]

    def step_branch_bug(self, i):
        self.bug("branch")
        return ["double norm = %s;" % self.pure_call(i),
                "if (st.rank == 0 && step % 100 == 0) {",
                "  std::printf(\"checkpoint at %d, norm %f\\n\", step, norm);",
                "  %s; // bug[branch]: collective on rank 0 only" % self.sync_call(i, "st.params.data()", "(int)st.params.size()"),
                "}"]

    def step_branch_ok(self, i):
        return ["%s;" % self.sync_call(i),
                "double norm = %s;" % self.pure_call(i, "st.grads.data()", "(int)st.grads.size()"),
                "if (st.rank == 0)",
                "  std::printf(\"step %d grad norm %f\\n\", step, norm);"]

    def step_balanced(self, i):
        return ["int rank;",
                "MPI_Comm_rank(st.comm, &rank);",
                "int lr = 0;",
                "if (rank == 0) {",
                "  lr = step < 1000 ? 1 : 2;",
                "  MPI_Bcast(&lr, 1, MPI_INT, 0, st.comm);",
                "} else {",
                "  MPI_Bcast(&lr, 1, MPI_INT, 0, st.comm);",
                "}",
                "if (lr > 1)",
                "  %s;" % self.sync_call(i)]

    def step_loop_bug(self, i):
        self.bug("loop")
        return ["int total = 1000 + step;",
                "int my_batches = total / st.world + (st.rank < total % st.world);",
                "for (int b = 0; b < my_batches; ++b) {",
                "  double loss = %s;" % self.pure_call(i),
                "  MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, st.comm); // bug[loop]",
                "}"]

    def step_loop_agreed(self, i):
        return ["int rank = world_rank(st.comm), world = world_size(st.comm);",
                "int total = 1000 + step;",
                "int mine = total / world + (rank < total % world), steps = 0;",
                "MPI_Allreduce(&mine, &steps, 1, MPI_INT, MPI_MAX, st.comm);",
                "for (int b = 0; b < steps; ++b) {",
                "  if (b < mine)",
                "    st.grads[b % st.grads.size()] += 1.0f;",
                "  %s;" % self.sync_call(i),
                "}"]

    def step_loop_uniform(self, i):
        return ["for (int micro = 0; micro < 4; ++micro) {",
                "  double l = %s;" % self.pure_call(i),
                "  for (size_t k = 0; k < st.grads.size(); ++k)",
                "    st.grads[k] += (float)(l * 1e-3);",
                "}",
                "%s;" % self.sync_call(i),
                "st.step = step + 1;"]

    def step_exit_bug(self, i):
        self.bug("exit")
        return ["int rank = world_rank(st.comm);",
                "if (rank >= st.world / 2 && st.grads.empty())",
                "  return;",
                "%s; // bug[exit]: the ranks that returned never get here" % self.sync_call(i)]

    def step_exit_ok(self, i):
        return ["if (st.grads.empty())",
                "  return;",
                "%s;" % self.sync_call(i),
                "if (world_rank(st.comm) == 0)",
                "  return;",
                "std::printf(\"worker %d finished step %d\\n\", st.rank, step);"]

    def step_implicit_bug(self, i):
        self.bug("implicit")
        return ["int extra = 0;",
                "if (st.local_rank == 0)",
                "  extra = 1;",
                "if (extra > 0 && step % 10 == 0)",
                "  MPI_Barrier(st.comm); // bug[implicit]: extra differs between ranks"]

    def step_arg_bug(self, i):
        self.bug("argument")
        return ["float lr = 0.1f;",
                "MPI_Bcast(&lr, 1, MPI_FLOAT, st.rank, st.comm); // bug[argument]: root is the rank"]

    def step_arg_ok(self, i):
        return ["float lr = 0.1f;",
                "MPI_Bcast(&lr, 1, MPI_FLOAT, 0, st.comm);",
                "int mine = 10 + st.rank, n = 0;",
                "MPI_Allreduce(&mine, &n, 1, MPI_INT, MPI_MIN, st.comm);",
                "std::vector<float> tmp(n, lr);",
                "MPI_Allreduce(MPI_IN_PLACE, tmp.data(), n, MPI_FLOAT, MPI_SUM, st.comm);"]

    def step_switch_balanced(self, i):
        return ["int x = step;",
                "switch (st.rank % 4) {",
                "case 0:",
                "  x += 1;",
                "  MPI_Bcast(&x, 1, MPI_INT, 0, st.comm);",
                "  break;",
                "default:",
                "  MPI_Bcast(&x, 1, MPI_INT, 0, st.comm);",
                "  break;",
                "}"]

    def step_switch_bug(self, i):
        self.bug("switch")
        return ["switch (world_rank(st.comm) % 4) {",
                "case 0:",
                "  %s; // bug[switch]" % self.sync_call(i),
                "  break;",
                "default:",
                "  std::printf(\"skip\\n\");",
                "  break;",
                "}"]

    def step_lambda_bug(self, i):
        self.bug("lambda")
        return ["auto sync = [&] { %s; };" % self.sync_call(i),
                "if (st.rank == 0 && step > 0)",
                "  sync(); // bug[lambda]"]

    def step_lambda_ok(self, i):
        return ["auto sync = [&] { %s; };" % self.sync_call(i),
                "sync();",
                "if (st.rank == 0)",
                "  std::printf(\"synced %d\\n\", step);"]

    def step_shard_ok(self, i):
        return ["ShardInfo sh{st.rank, st.rank * 128, 128};",
                "double local = 0.0;",
                "for (int k = sh.begin; k < sh.begin + sh.count; ++k)",
                "  local += (double)k;",
                "if (sh.owner_rank == 0)",
                "  std::printf(\"shard %d local %f\\n\", sh.begin, local);",
                "MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, st.comm);"]

    def step_shard_bug(self, i):
        self.bug("shard")
        return ["ShardInfo sh{st.rank, 0, 64};",
                "if (sh.owner_rank == st.world - 1)",
                "  %s; // bug[shard]: only the last rank" % self.sync_call(i)]

    def step_rlog_call(self, i):
        c = self.call(i, "rlog", "st.comm, st.rank, step")
        lines = ["%s;" % self.sync_call(i)]
        if c:
            lines.append("%s;" % c)
        return lines
