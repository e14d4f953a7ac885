// The one body of every generated wrapper: record the call's fingerprint,
// forward to the real function, register any communicator it created. The
// generator only says, per function, which argument is which (from rules/);
// what an argument means is read from its C++ type through the API's traits
// (MpiTraits, NcclTraits).
#pragma once

#include "Runtime.h"

#include <cstdint>
#include <tuple>
#include <type_traits>

namespace lockstep::rt {

enum class Kind { Collective, Finalize, GroupBegin, GroupEnd };

/// The return and parameter types of a declared function, so that a
/// wrapper's signature is exactly its header's.
template <class F> struct Signature;
template <class R, class... A> struct Signature<R (*)(A...)> {
  using Ret = R;
  using Args = std::tuple<A...>;
};
template <class F> using Ret = typename Signature<F>::Ret;
template <class F, size_t I> using ArgT = std::tuple_element_t<I, typename Signature<F>::Args>;

/// Argument positions from the rules (-1: absent). A call that passes the
/// in-place marker reads its count and datatype from the InPlace positions.
template <uint32_t FuncId, Kind K, int CommArg, int RootArg, int CountArg, int DatatypeArg,
          int OpArg, int InPlaceCountArg = -1, int InPlaceDatatypeArg = -1>
struct Spec {
  static constexpr uint32_t Func = FuncId;
  static constexpr Kind Which = K;
  static constexpr int Comm = CommArg, Root = RootArg, Count = CountArg, Datatype = DatatypeArg,
                       Op = OpArg, InPlaceCount = InPlaceCountArg,
                       InPlaceDatatype = InPlaceDatatypeArg;
};

/// The traits of a communicator type (MpiApi.h, NcclApi.h): the wrappers of
/// a user's own collectives read their communicator with them.
template <class CommType> struct TraitsFor;

template <class T> int64_t toCount(T V) {
  if constexpr (std::is_integral_v<T>)
    return V < 0 ? wire::NoCount : int64_t(V);
  else
    return wire::NoCount; // an array of counts (the v-variants): nothing single to compare
}

/// True when argument \p I exists and \p Reader takes it: a user's
/// collective may describe its data in types of its own.
template <class Reader, int I, class... A> constexpr bool reads() {
  if constexpr (I < 0)
    return false;
  else
    return std::is_invocable_v<Reader, std::tuple_element_t<size_t(I), std::tuple<A...>>>;
}

template <class Traits, class S, class Real, class... A>
auto intercept(Real RealFn, const void *ReturnAddress, bool InPlace, A... Args)
    -> decltype(RealFn(Args...)) {
  Guard G;
  if (G.nested() || !enabled())
    return RealFn(Args...);
  if constexpr (S::Which == Kind::GroupBegin) {
    ++groupDepth();
    return RealFn(Args...);
  } else if constexpr (S::Which == Kind::GroupEnd) {
    if (groupDepth() > 0)
      --groupDepth();
    return RealFn(Args...);
  } else {
    auto Tuple = std::tie(Args...);
    using CommPtr = typename Traits::Comm *;
    // A function with a communicator out-parameter creates one; when its
    // rules "comm" is that out-parameter (ncclCommInitRank) it has no parent.
    constexpr bool Creates = (std::is_same_v<A, CommPtr> || ...);
    CommSlot *Slot = nullptr;
    if constexpr (S::Which == Kind::Finalize) {
      Slot = Traits::world();
    } else if constexpr (S::Comm >= 0) {
      using CommArgT = std::tuple_element_t<S::Comm, std::tuple<A...>>;
      if constexpr (std::is_same_v<CommArgT, typename Traits::Comm>)
        Slot = Traits::comm(std::get<S::Comm>(Tuple));
    }
    uint64_t Seq = 0;
    if (Slot) {
      int64_t Count = wire::NoCount;
      uint32_t Datatype = wire::None, Op = wire::None;
      int32_t Root = wire::NoRoot;
      if constexpr (S::Count >= 0)
        Count = toCount(std::get<S::Count>(Tuple));
      if constexpr (reads<decltype(&Traits::datatype), S::Datatype, A...>())
        Datatype = Traits::datatype(std::get<S::Datatype>(Tuple));
      if (InPlace) {
        Count = wire::NoCount;
        Datatype = wire::None;
        if constexpr (S::InPlaceCount >= 0)
          Count = toCount(std::get<S::InPlaceCount>(Tuple));
        if constexpr (reads<decltype(&Traits::datatype), S::InPlaceDatatype, A...>())
          Datatype = Traits::datatype(std::get<S::InPlaceDatatype>(Tuple));
      }
      if constexpr (reads<decltype(&Traits::op), S::Op, A...>())
        Op = Traits::op(std::get<S::Op>(Tuple));
      if constexpr (S::Root >= 0)
        Root = std::get<S::Root>(Tuple) < 0 ? wire::NoRoot : int32_t(std::get<S::Root>(Tuple));
      Seq = recordEvent(*Slot, S::Func, Count, Datatype, Op, Root,
                        groupDepth() > 0 ? wire::InGroup : 0, ReturnAddress);
    }
    if constexpr (std::is_void_v<decltype(RealFn(Args...))>) { // a user's collective
      RealFn(Args...);
      if (Seq)
        returnedEvent(*Slot);
    } else {
      auto Result = RealFn(Args...);
      if (Seq)
        returnedEvent(*Slot);
      if constexpr (Creates)
        if (Traits::succeeded(Result))
          Traits::created(Slot, Seq, Args...);
      return Result;
    }
  }
}

} // namespace lockstep::rt
