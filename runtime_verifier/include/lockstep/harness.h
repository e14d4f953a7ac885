/* lockstep/harness.h: a test program's rank, world size and a ready MPI or
 * NCCL communicator, under `lockstep run`, in a few lines:
 *
 *   #include <nccl.h>                      (or <mpi.h>, before this header)
 *   #include <lockstep/harness.h>
 *   lockstep_job job;
 *   ncclComm_t comm;
 *   if (lockstep_nccl_init(&job, &comm) != 0) return 1;
 *   ... call the flagged function with comm ...
 *
 * Header-only and C or C++: the functions behind it live in the interposer
 * that `lockstep run` preloads, found with dlsym, so nothing extra is
 * linked (link with -ldl on old C libraries). Every function returns 0 on
 * success, else prints why on stderr and returns -1. */
#ifndef LOCKSTEP_HARNESS_H
#define LOCKSTEP_HARNESS_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lockstep_job {
  int rank, world_size;             /* in the whole job */
  int local_rank, local_world_size; /* on this machine */
} lockstep_job;

/* How long a rank waits for a value another rank publishes. */
#define LOCKSTEP_SHARE_TIMEOUT_SECONDS 300

static inline void *lockstep_harness_symbol_(const char *name) {
  void *fn = dlsym(RTLD_DEFAULT, name);
  if (!fn)
    fprintf(stderr,
            "lockstep: harness: '%s' not found: run this program with 'lockstep run' "
            "(it preloads liblockstep-intercept.so)\n",
            name);
  return fn;
}

/* This process's place in the job. */
static inline int lockstep_job_get(lockstep_job *job) {
  typedef int (*fn_t)(int *, int *, int *, int *);
  fn_t fn = (fn_t)lockstep_harness_symbol_("lockstep_job_info");
  return fn ? fn(&job->rank, &job->world_size, &job->local_rank, &job->local_world_size) : -1;
}

/* Shares SIZE bytes under KEY through the coordinator: the rank with
 * PROVIDER nonzero publishes DATA, the others receive it into DATA. */
static inline int lockstep_share(const char *key, void *data, size_t size, int provider) {
  if (provider) {
    typedef int (*put_t)(const char *, const void *, size_t);
    put_t put = (put_t)lockstep_harness_symbol_("lockstep_kv_put");
    return put ? put(key, data, size) : -1;
  }
  typedef int (*get_t)(const char *, void *, size_t, size_t *, int);
  get_t get = (get_t)lockstep_harness_symbol_("lockstep_kv_get");
  size_t got = 0;
  if (!get || get(key, data, size, &got, LOCKSTEP_SHARE_TIMEOUT_SECONDS) != 0)
    return -1;
  if (got != size) {
    fprintf(stderr, "lockstep: harness: '%s' holds %zu bytes, expected %zu\n", key, got, size);
    return -1;
  }
  return 0;
}

#ifdef MPI_VERSION
/* MPI_Init (unless done) and the job's communicator. Needs
 * 'lockstep run --mpi' (or an MPI launcher in attach mode): MPI's world
 * must be the job. */
static inline int lockstep_mpi_init(int *argc, char ***argv, lockstep_job *job, MPI_Comm *comm) {
  int initialized = 0, size = 0, rank = 0;
  if (lockstep_job_get(job) != 0)
    return -1;
  MPI_Initialized(&initialized);
  if (!initialized && MPI_Init(argc, argv) != MPI_SUCCESS)
    return -1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size != job->world_size || rank != job->rank) {
    fprintf(stderr,
            "lockstep: harness: MPI sees rank %d of %d, the job rank %d of %d: start MPI "
            "programs with 'lockstep run --mpi'\n",
            rank, size, job->rank, job->world_size);
    return -1;
  }
  *comm = MPI_COMM_WORLD;
  return 0;
}
#endif

#ifdef NCCL_H_
/* Selects this rank's GPU and creates an NCCL communicator over the whole
 * job; rank 0 makes the unique id and the coordinator hands it out. When
 * ranks share a GPU, each gets its own NCCL_HOSTID (NCCL refuses two ranks
 * on one device otherwise) and socket transport on the loopback. */
static inline int lockstep_nccl_init(lockstep_job *job, ncclComm_t *comm) {
  int devices = 0;
  ncclUniqueId id;
  ncclResult_t rc;
  if (lockstep_job_get(job) != 0)
    return -1;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "lockstep: harness: no CUDA device\n");
    return -1;
  }
  if (job->local_world_size > devices) {
    char host[64];
    snprintf(host, sizeof host, "lockstep-rank%d", job->rank);
    setenv("NCCL_HOSTID", host, 0);
    setenv("NCCL_P2P_DISABLE", "1", 0);
    setenv("NCCL_SHM_DISABLE", "1", 0);
    setenv("NCCL_NET", "Socket", 0);
    setenv("NCCL_SOCKET_IFNAME", "lo", 0);
  }
  if (cudaSetDevice(job->local_rank % devices) != cudaSuccess) {
    fprintf(stderr, "lockstep: harness: cudaSetDevice(%d) failed\n", job->local_rank % devices);
    return -1;
  }
  if (job->rank == 0 && ncclGetUniqueId(&id) != ncclSuccess) {
    fprintf(stderr, "lockstep: harness: ncclGetUniqueId failed\n");
    return -1;
  }
  if (lockstep_share("lockstep/nccl-unique-id", &id, sizeof id, job->rank == 0) != 0)
    return -1;
  rc = ncclCommInitRank(comm, job->world_size, id, job->rank);
  if (rc != ncclSuccess) {
    fprintf(stderr, "lockstep: harness: ncclCommInitRank: %s\n", ncclGetErrorString(rc));
    return -1;
  }
  return 0;
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* LOCKSTEP_HARNESS_H */
