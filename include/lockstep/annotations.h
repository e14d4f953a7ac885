// Annotations that tell lockstep about your own wrappers, so that it treats
// them like the collectives and rank sources of its rules files.
//
//   LOCKSTEP_COLLECTIVE void sync_all(Comm &c);  // every rank must call it
//   LOCKSTEP_RANK_SOURCE int my_rank();          // returns this process's rank
//   LOCKSTEP_UNIFORM int agreed_steps();         // returns the same value everywhere
//
// Outside Clang the macros expand to nothing.
#pragma once

#if defined(__clang__)
#define LOCKSTEP_COLLECTIVE __attribute__((annotate("lockstep::collective")))
#define LOCKSTEP_RANK_SOURCE __attribute__((annotate("lockstep::rank_source")))
#define LOCKSTEP_UNIFORM __attribute__((annotate("lockstep::uniform")))
#else
#define LOCKSTEP_COLLECTIVE
#define LOCKSTEP_RANK_SOURCE
#define LOCKSTEP_UNIFORM
#endif
