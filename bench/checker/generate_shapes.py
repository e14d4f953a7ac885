#!/usr/bin/env python3
"""Generate the stress, calls and CUDA/NCCL inputs of the lockstep checker
benchmarks (bench/checker/stress.sh, calls.sh, nccl.sh).

    generate_shapes.py SHAPE OUT [-n N]

Shapes (N defaults to 5000 for the stress shapes, 800 for calls, 3500 lines
for nccl):

  branches  C++: one function with N rank branches in a row,
            `if (rank == k) MPI_Barrier(comm);`: N seeded bugs
  balanced  C++: one function with N balanced rank branches,
            `if (rank == k) MPI_Barrier(comm); else MPI_Barrier(comm);`
            (2^N paths through the function): no bug
  ladder    C++: one function with an N-arm else-if ladder on the rank
            (nesting N deep), every arm and the final else broadcast with
            root 0: no bug
  chain     C++: an N-deep call chain chain_f0 -> chain_f1 -> ... ->
            chain_f{N-1}, whose last function calls MPI_Barrier; the chain is
            declared up front and defined callers first (every call goes
            forward); a rank branch at the top calls chain_f0: one bug
  ternary   C++: `int x = rank == 0 ? 0 : rank == 1 ? 1 : ... : -1;` with N
            arms (nesting N deep), then a collective whose root is x and one
            under `if (x > N / 2)`: two bugs
  sum       C++: `int x = rank - 1 - 1 - ...;` with 10 * N terms (a
            left-nested operand chain 50,000 deep at N = 5000), then a
            barrier under `if (x > 0)`: one bug (past the engine's
            expression bound it is an unknown per-rank value, still a bug)
  breaks    C++: one loop left by N per-rank `break`s in a row,
            `if (owner[k] == rank) break; last = i + k;`, then a barrier
            under a condition on `last`: one bug (each rank leaves at its
            own iteration, so `last` differs)
  stress    branches, balanced, chain, ternary and breaks in one file (not ladder:
            clang itself parses a 5000-deep else-if ladder slowly, ~6 s, and
            that would hide the other shapes' cost)
  calls     C: N functions; each reads the rank, branches on it with the
            same collectives in every arm (if/else, else-if, switch, a `?:`
            of values, rank-0-only logging), calls the three previous
            functions (which all perform collectives: f_i's expanded
            sequence of collectives grows like a tribonacci number) and ends
            with an unconditional MPI_Allreduce: no bug, ~20 lines a function
  nccl      CUDA (parsed host-side): about N lines of NCCLCHECK- and
            CUDACHECK-wrapped calls in functions of 200+ lines: grouped
            ncclSend/ncclRecv with rank-based peers, ncclAllReduce,
            ncclBroadcast in balanced arms, ncclReduceScatter, ncclAllGather,
            cudaMemcpyAsync, kernel launches, rank-0 logging; one function in
            four carries a seeded bug (marked `// bug[kind]`)

Prints one line:

    shape=S n=N lines=L functions=F seeded_bugs=B

seeded_bugs is what a correct engine reports (each one a collective or a
call reaching one, flagged once). The files are deterministic for a given
SHAPE and N.
"""
import argparse
import random
import sys

STRESS_SHAPES = ["branches", "balanced", "ladder", "chain", "ternary", "sum", "breaks"]
COMBINED = ["branches", "balanced", "chain", "ternary", "breaks"]  # the `stress` file
DEFAULT_N = {"calls": 800, "nccl": 3500}


class Out:
    def __init__(self):
        self.lines = []
        self.functions = 0
        self.bugs = 0

    def add(self, *ls):
        self.lines.extend(ls)

    def text(self):
        return "\n".join(self.lines) + "\n"


# ---- stress shapes (C++) ----------------------------------------------------

def rank_prologue(o):
    o.add("  int rank;", "  MPI_Comm_rank(comm, &rank);")


def stress_branches(o, n):
    o.add("// %d rank branches in a row, each a collective on one rank only." % n,
          "void stress_branches(MPI_Comm comm) {")
    rank_prologue(o)
    for k in range(n):
        o.add("  if (rank == %d)" % k, "    MPI_Barrier(comm); // bug[branch]")
    o.add("}", "")
    o.functions += 1
    o.bugs += n


def stress_balanced(o, n):
    o.add("// %d balanced rank branches in a row: 2^%d paths, no bug." % (n, n),
          "void stress_balanced(MPI_Comm comm) {")
    rank_prologue(o)
    for k in range(n):
        o.add("  if (rank == %d)" % k, "    MPI_Barrier(comm);", "  else", "    MPI_Barrier(comm);")
    o.add("}", "")
    o.functions += 1


def stress_ladder(o, n):
    o.add("// An else-if ladder of %d arms on the rank (nested %d deep): every arm" % (n, n),
          "// broadcasts with root 0, so every rank calls MPI_Bcast once: no bug.",
          "int stress_ladder(MPI_Comm comm) {")
    rank_prologue(o)
    o.add("  int v = -1;")
    for k in range(n):
        o.add("  %sif (rank == %d) {" % ("" if k == 0 else "} else ", k),
              "    v = %d;" % (k * 7 % 1000),
              "    MPI_Bcast(&v, 1, MPI_INT, 0, comm);")
    o.add("  } else {", "    MPI_Bcast(&v, 1, MPI_INT, 0, comm);", "  }", "  return v;", "}", "")
    o.functions += 1


def stress_chain(o, n):
    o.add("// A call chain %d deep: chain_f0 -> chain_f1 -> ... -> chain_f%d, which" % (n, n - 1),
          "// calls MPI_Barrier. Declared up front, defined callers first.")
    for k in range(n):
        o.add("void chain_f%d(MPI_Comm comm);" % k)
    o.add("")
    for k in range(n - 1):
        o.add("void chain_f%d(MPI_Comm comm) { chain_f%d(comm); }" % (k, k + 1))
    o.add("void chain_f%d(MPI_Comm comm) { MPI_Barrier(comm); }" % (n - 1), "")
    o.add("void stress_chain(MPI_Comm comm) {")
    rank_prologue(o)
    o.add("  if (rank == 0)",
          "    chain_f0(comm); // bug[chain]: MPI_Barrier %d calls down, on rank 0 only" % n,
          "}", "")
    o.functions += n + 1
    o.bugs += 1


def stress_ternary(o, n):
    o.add("// A ?: chain of %d arms on the rank (nested %d deep), then collectives" % (n, n),
          "// that depend on its value.",
          "void stress_ternary(MPI_Comm comm, int *buf) {")
    rank_prologue(o)
    o.add("  int x = rank == 0 ? 0")
    for k in range(1, n):
        o.add("        : rank == %d ? %d" % (k, k))
    o.add("        : -1;",
          "  MPI_Bcast(buf, 1, MPI_INT, x < 0 ? 0 : x, comm); // bug[argument]: the root depends on the rank",
          "  if (x > %d)" % (n // 2),
          "    MPI_Barrier(comm); // bug[branch]: only the ranks above %d" % (n // 2),
          "}", "")
    o.functions += 1
    o.bugs += 2


def stress_sum(o, n):
    o.add("// A sum of %d terms (a left-nested operand chain), then a collective" % (10 * n),
          "// under a condition on it.",
          "void stress_sum(MPI_Comm comm) {")
    rank_prologue(o)
    o.add("  int x = rank")
    for k in range(0, 10 * n, 20):
        o.add("          " + " - 1" * min(20, 10 * n - k))
    o.add("          ;",
          "  if (x > 0)",
          "    MPI_Barrier(comm); // bug[branch]: only the ranks above %d" % (10 * n - 1),
          "}", "")
    o.functions += 1
    o.bugs += 1


def stress_breaks(o, n):
    o.add("// One loop left by %d per-rank `break`s, then a collective under a" % n,
          "// condition on what the loop wrote last.",
          "void stress_breaks(MPI_Comm comm, const int *owner, int steps) {")
    rank_prologue(o)
    o.add("  int last = -1;", "  for (int i = 0; i < steps; ++i) {")
    for k in range(n):
        o.add("    if (owner[%d] == rank)" % k, "      break;", "    last = i + %d;" % k)
    o.add("  }",
          "  if (last == 2)",
          "    MPI_Barrier(comm); // bug[branch]: each rank leaves the loop at its own iteration",
          "}", "")
    o.functions += 1
    o.bugs += 1


def gen_stress(shapes, n):
    o = Out()
    o.add("// Generated by bench/checker/generate_shapes.py: %s, N = %d." % (", ".join(shapes), n),
          "#include <mpi.h>", "")
    for s in shapes:
        globals()["stress_" + s](o, n)
    return o


# ---- calls (C) ---------------------------------------------------------------

def gen_calls(n):
    """Every function calls f_{i-1}, f_{i-2} (in the arms of a balanced
    rank branch, or around it) and f_{i-3}, then allreduces. The first three
    perform one collective each."""
    rng = random.Random(8000 + n)
    o = Out()
    o.add("/* Generated by bench/checker/generate_shapes.py: calls, N = %d. */" % n,
          "#include <mpi.h>",
          "#include <stdio.h>",
          "#include <string.h>",
          "",
          "/* Each f_i reads the rank, branches on it with the same collectives in",
          "   every arm, calls the three previous functions and allreduces: no bug. */",
          "")
    for i in range(n):
        o.add("static void f%d(MPI_Comm c, double *buf, int n);" % i)
    o.add("")
    base = [
        ["MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_DOUBLE, MPI_SUM, c);"],
        ["MPI_Barrier(c);"],
        ["MPI_Bcast(buf, n, MPI_DOUBLE, 0, c);"],
    ]
    for i in range(n):
        o.add("static void f%d(MPI_Comm c, double *buf, int n) {" % i)
        o.functions += 1
        if i < 3:
            o.add("  int rank;", "  MPI_Comm_rank(c, &rank);",
                  "  if (rank == 0)", "    buf[0] += 1.0;")
            o.add(*["  " + l for l in base[i]])
            o.add("}", "")
            continue
        a, b, d = "f%d(c, buf, n);" % (i - 1), "f%d(c, buf, n);" % (i - 2), "f%d(c, buf, n);" % (i - 3)
        v = rng.randrange(6)
        o.add("  int rank;", "  MPI_Comm_rank(c, &rank);")
        if v == 2:
            o.add("  int size;", "  MPI_Comm_size(c, &size);")
        o.add("  double local = buf[%d %% n] * %d.0;" % (i % 61, i % 97 + 1))
        if v == 0:    # if/else, both arms call the same two functions
            o.add("  if (rank == 0) {", "    " + a, "    " + b, "  } else {", "    " + a, "    " + b, "  }",
                  "  " + d)
        elif v == 1:  # one arm does extra local work
            o.add("  " + a,
                  "  if (rank % 2 == 1) {", "    local *= 0.5;", "    " + b, "  } else {", "    " + b, "  }",
                  "  " + d)
        elif v == 2:  # else-if with three arms
            o.add("  if (rank < size / 2) {", "    " + a, "    " + b,
                  "  } else if (rank == size - 1) {", "    local += 1.0;", "    " + a, "    " + b,
                  "  } else {", "    " + a, "    " + b, "  }", "  " + d)
        elif v == 3:  # switch with balanced cases
            o.add("  switch (rank % 3) {",
                  "  case 0:", "    " + a, "    " + b, "    break;",
                  "  case 1:", "    local = -local;", "    " + a, "    " + b, "    break;",
                  "  default:", "    " + a, "    " + b, "    break;",
                  "  }", "  " + d)
        elif v == 4:  # a rank-dependent value that feeds no collective
            o.add("  double w = rank == 0 ? 1.0 : rank == 1 ? 0.5 : 0.25;",
                  "  local *= w;", "  " + a,
                  "  if (rank != 0) {", "    " + b, "    " + d, "  } else {", "    " + b, "    " + d, "  }")
        else:         # uniform loop, then balanced arms on the rank
            o.add("  for (int s = 0; s < 2; ++s)", "    buf[s %% (n > 0 ? n : 1)] += %d.0;" % (i % 13),
                  "  if (rank >= 1) {", "    " + a, "    " + b, "    " + d,
                  "  } else {", "    " + a, "    " + b, "    " + d, "  }")
        if rng.random() < 0.5:
            o.add("  if (rank == 0)", "    printf(\"f%d: %%f\\n\", local);" % i)
        o.add("  MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, c);",
              "  buf[0] += local;", "}", "")
    o.add("int lockstep_calls_main(int argc, char **argv) {",
          "  double buf[64];",
          "  MPI_Init(&argc, &argv);",
          "  memset(buf, 0, sizeof buf);",
          "  f%d(MPI_COMM_WORLD, buf, 64);" % (n - 1),
          "  MPI_Finalize();",
          "  return 0;",
          "}")
    return o


# ---- nccl (CUDA host side) -------------------------------------------------

NCCL_PRELUDE = r"""// Generated by bench/checker/generate_shapes.py: nccl, about {n} lines.
// NCCL training code in the style of nccl-tests and framework backends:
// every call wrapped in NCCLCHECK or CUDACHECK, long functions, rank-based
// peers. Parsed host-side (--cuda-host-only).
#include <cuda_runtime.h>
#include <nccl.h>
#include <cstdio>
#include <cstdlib>

#define NCCLCHECK(cmd)                                                         \
  do {                                                                         \
    ncclResult_t r_ = (cmd);                                                   \
    if (r_ != ncclSuccess) {                                                   \
      std::printf("NCCL failure %s:%d '%s'\n", __FILE__, __LINE__,            \
                  ncclGetErrorString(r_));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define CUDACHECK(cmd)                                                         \
  do {                                                                         \
    cudaError_t e_ = (cmd);                                                    \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("CUDA failure %s:%d '%s'\n", __FILE__, __LINE__,            \
                  cudaGetErrorString(e_));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void scale_kernel(float *x, size_t n, float a) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

__global__ void axpy_kernel(float *y, const float *x, size_t n, float a) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

struct Ctx {
  ncclComm_t comm;
  cudaStream_t stream;
  cudaEvent_t done;
  int rank;   // this rank in comm
  int nranks;
  int local_rank;
  float *send;
  float *recv;
  float *work;
  float *host;
  size_t count;
};

static void init_ctx(Ctx &c, ncclUniqueId id, int rank, int nranks) {
  c.rank = rank;
  c.nranks = nranks;
  c.local_rank = rank % 8;
  c.count = 1 << 20;
  CUDACHECK(cudaSetDevice(c.local_rank));
  CUDACHECK(cudaStreamCreate(&c.stream));
  CUDACHECK(cudaEventCreate(&c.done));
  CUDACHECK(cudaMalloc((void **)&c.send, c.count * sizeof(float)));
  CUDACHECK(cudaMalloc((void **)&c.recv, c.count * sizeof(float)));
  CUDACHECK(cudaMalloc((void **)&c.work, c.count * sizeof(float)));
  CUDACHECK(cudaMallocHost((void **)&c.host, c.count * sizeof(float)));
  NCCLCHECK(ncclCommInitRank(&c.comm, nranks, id, rank));
}
"""


class NcclGen:
    """Blocks of 8-25 lines; a phase function takes blocks until it has 200+
    lines. Most blocks are correct; BUG_BLOCKS carry a seeded bug."""

    def __init__(self, rng, out):
        self.rng = rng
        self.o = out
        self.k = 0  # a running counter for names and constants

    def blk_ring(self):
        s = self.rng.randint(1, 3)
        return ["// ring exchange, distance %d" % s,
                "NCCLCHECK(ncclGroupStart());",
                "NCCLCHECK(ncclSend(c.send, c.count, ncclFloat, (c.rank + %d) %% c.nranks, c.comm, c.stream));" % s,
                "NCCLCHECK(ncclRecv(c.recv, c.count, ncclFloat, (c.rank + c.nranks - %d) %% c.nranks, c.comm, c.stream));" % s,
                "NCCLCHECK(ncclGroupEnd());",
                "axpy_kernel<<<(unsigned)((c.count + 255) / 256), 256, 0, c.stream>>>(c.work, c.recv, c.count, 0.5f);",
                "CUDACHECK(cudaGetLastError());"]

    def blk_pair(self):
        return ["// pairwise exchange with the neighbour rank ^ 1 (uniform: nranks is even)",
                "{",
                "  int peer = c.rank ^ 1;",
                "  NCCLCHECK(ncclGroupStart());",
                "  NCCLCHECK(ncclSend(c.send, c.count / 2, ncclFloat, peer, c.comm, c.stream));",
                "  NCCLCHECK(ncclRecv(c.recv, c.count / 2, ncclFloat, peer, c.comm, c.stream));",
                "  NCCLCHECK(ncclGroupEnd());",
                "}"]

    def blk_allreduce(self):
        op = self.rng.choice(["ncclSum", "ncclMax", "ncclAvg"])
        return ["// gradient allreduce, then copy back for the host-side check",
                "NCCLCHECK(ncclAllReduce(c.send, c.recv, c.count, ncclFloat, %s, c.comm, c.stream));" % op,
                "CUDACHECK(cudaMemcpyAsync(c.host, c.recv, 64 * sizeof(float), cudaMemcpyDeviceToHost, c.stream));",
                "CUDACHECK(cudaStreamSynchronize(c.stream));",
                "for (int k = 0; k < 64; ++k)",
                "  checksum += c.host[k];"]

    def blk_log(self):
        return ["// rank 0 logs after the collective",
                "NCCLCHECK(ncclAllReduce(c.recv, c.recv, 1, ncclFloat, ncclSum, c.comm, c.stream));",
                "CUDACHECK(cudaMemcpyAsync(c.host, c.recv, sizeof(float), cudaMemcpyDeviceToHost, c.stream));",
                "CUDACHECK(cudaStreamSynchronize(c.stream));",
                "if (c.rank == 0)",
                "  std::printf(\"step %d phase %d loss %f checksum %f\\n\", step, " + str(self.k) + ", c.host[0], checksum);"]

    def blk_bcast_balanced(self):
        return ["// the root fills the buffer, every rank broadcasts",
                "if (c.rank == 0) {",
                "  CUDACHECK(cudaMemsetAsync(c.work, 0, c.count * sizeof(float), c.stream));",
                "  NCCLCHECK(ncclBroadcast(c.work, c.work, c.count, ncclFloat, 0, c.comm, c.stream));",
                "} else {",
                "  NCCLCHECK(ncclBroadcast(c.work, c.work, c.count, ncclFloat, 0, c.comm, c.stream));",
                "}"]

    def blk_rs_ag(self):
        return ["// sharded optimizer step: reduce-scatter, update the shard, all-gather",
                "{",
                "  size_t shard = c.count / (size_t)c.nranks;",
                "  float *mine = c.work + (size_t)c.rank * shard;",
                "  NCCLCHECK(ncclReduceScatter(c.send, mine, shard, ncclFloat, ncclSum, c.comm, c.stream));",
                "  scale_kernel<<<(unsigned)((shard + 255) / 256), 256, 0, c.stream>>>(mine, shard, lr);",
                "  CUDACHECK(cudaGetLastError());",
                "  NCCLCHECK(ncclAllGather(mine, c.work, shard, ncclFloat, c.comm, c.stream));",
                "}"]

    def blk_copy(self):
        return ["// stage the next batch",
                "CUDACHECK(cudaMemcpyAsync(c.send, c.work, c.count * sizeof(float), cudaMemcpyDeviceToDevice, c.stream));",
                "CUDACHECK(cudaEventRecord(c.done, c.stream));",
                "CUDACHECK(cudaEventSynchronize(c.done));",
                "scale_kernel<<<(unsigned)((c.count + 255) / 256), 256, 0, c.stream>>>(c.send, c.count, 1.0f / c.nranks);",
                "CUDACHECK(cudaGetLastError());"]

    def blk_loop(self):
        return ["// micro-batches: the same count on every rank",
                "for (int micro = 0; micro < 4; ++micro) {",
                "  scale_kernel<<<(unsigned)((c.count + 255) / 256), 256, 0, c.stream>>>(c.send, c.count, 0.25f);",
                "  CUDACHECK(cudaGetLastError());",
                "  NCCLCHECK(ncclAllReduce(c.send, c.send, c.count, ncclFloat, ncclSum, c.comm, c.stream));",
                "}"]

    def blk_reduce(self):
        return ["// reduce to rank 0, which writes the metrics",
                "NCCLCHECK(ncclReduce(c.recv, c.work, 16, ncclFloat, ncclSum, 0, c.comm, c.stream));",
                "if (c.rank == 0) {",
                "  CUDACHECK(cudaMemcpyAsync(c.host, c.work, 16 * sizeof(float), cudaMemcpyDeviceToHost, c.stream));",
                "  CUDACHECK(cudaStreamSynchronize(c.stream));",
                "  std::printf(\"metrics %f %f\\n\", c.host[0], c.host[1]);",
                "}"]

    # seeded bugs
    def bug_branch(self):
        self.o.bugs += 1
        return ["// checkpoint: rank 0 only",
                "if (c.rank == 0 && step % 100 == 0) {",
                "  CUDACHECK(cudaMemcpyAsync(c.host, c.send, 64 * sizeof(float), cudaMemcpyDeviceToHost, c.stream));",
                "  NCCLCHECK(ncclBroadcast(c.send, c.send, c.count, ncclFloat, 0, c.comm, c.stream)); // bug[branch]",
                "}"]

    def bug_exit(self):
        self.o.bugs += 1
        return ["if (c.local_rank != 0 && checksum < 0.0)",
                "  return; // the ranks that leave skip the allreduce below",
                "NCCLCHECK(ncclAllReduce(c.recv, c.recv, c.count, ncclFloat, ncclSum, c.comm, c.stream)); // bug[exit]"]

    def bug_root(self):
        self.o.bugs += 1
        return ["NCCLCHECK(ncclBroadcast(c.work, c.work, c.count, ncclFloat, c.rank, c.comm, c.stream)); // bug[argument]: root is the rank"]

    BLOCKS = ["ring", "pair", "allreduce", "log", "bcast_balanced", "rs_ag", "copy", "loop", "reduce"]
    BUGS = ["branch", "exit", "root"]

    def phase(self, idx, buggy):
        body = ["double checksum = 0.0;", "float lr = 0.01f * (step + 1);"]
        blocks = []
        while sum(len(b) + 1 for b in blocks) < 200:
            self.k += 1
            blocks.append(getattr(self, "blk_" + self.rng.choice(self.BLOCKS))())
        if buggy:
            pos = self.rng.randrange(1, len(blocks))
            blocks.insert(pos, getattr(self, "bug_" + self.rng.choice(self.BUGS))())
        for b in blocks:
            body += b + [""]
        body += ["scale_kernel<<<(unsigned)((c.count + 255) / 256), 256, 0, c.stream>>>(c.work, c.count, lr);",
                 "CUDACHECK(cudaGetLastError());",
                 "CUDACHECK(cudaStreamSynchronize(c.stream));",
                 "if (c.rank == 0)",
                 "  std::printf(\"phase %d done, checksum %%f\\n\", checksum);" % idx]
        self.o.add("static void phase_%d(Ctx &c, int step) {" % idx)
        self.o.add(*[("  " + l) if l else "" for l in body])
        self.o.add("}", "")
        self.o.functions += 1


def gen_nccl(n):
    rng = random.Random(3500)
    o = Out()
    o.add(*NCCL_PRELUDE.replace("{n}", str(n)).rstrip("\n").split("\n"))
    o.add("")
    o.functions += 3
    g = NcclGen(rng, o)
    idx = 0
    tail = 25
    while len(o.lines) + 110 + tail < n:  # phases are ~215 lines: end within half a phase of N
        g.phase(idx, buggy=(idx % 4 == 3))
        idx += 1
    o.add("int lockstep_nccl_main(int argc, char **argv) {",
          "  int rank = argc > 1 ? std::atoi(argv[1]) : 0;",
          "  int nranks = argc > 2 ? std::atoi(argv[2]) : 1;",
          "  ncclUniqueId id;",
          "  if (rank == 0)",
          "    NCCLCHECK(ncclGetUniqueId(&id)); // shared out of band",
          "  Ctx c;",
          "  init_ctx(c, id, rank, nranks);",
          "  for (int step = 0; step < 1000; ++step) {")
    for i in range(idx):
        o.add("    phase_%d(c, step);" % i)
    o.add("  }",
          "  CUDACHECK(cudaStreamSynchronize(c.stream));",
          "  NCCLCHECK(ncclCommDestroy(c.comm));",
          "  return 0;",
          "}")
    o.functions += 1
    return o


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shape", choices=STRESS_SHAPES + ["stress", "calls", "nccl"])
    ap.add_argument("out", help="output file")
    ap.add_argument("-n", type=int, default=None,
                    help="size: branches/arms/depth (stress shapes, default 5000), "
                         "functions (calls, default 800), lines (nccl, default 3500)")
    a = ap.parse_args()
    n = a.n if a.n is not None else DEFAULT_N.get(a.shape, 5000)
    if a.shape == "calls":
        if n < 4:
            sys.exit("generate_shapes.py: calls needs N >= 4")
        o = gen_calls(n)
    elif a.shape == "nccl":
        if n < 400:
            sys.exit("generate_shapes.py: nccl needs N >= 400 lines")
        o = gen_nccl(n)
    else:
        if n < 2:
            sys.exit("generate_shapes.py: N must be at least 2")
        o = gen_stress(COMBINED if a.shape == "stress" else [a.shape], n)
    text = o.text()
    with open(a.out, "w") as f:
        f.write(text)
    print("shape=%s n=%d lines=%d functions=%d seeded_bugs=%d"
          % (a.shape, n, text.count("\n"), o.functions, o.bugs))


if __name__ == "__main__":
    main()
