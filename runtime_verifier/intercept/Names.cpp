#include "Names.h"

namespace lockstep::rt {

namespace {
struct Namers {
  Namer Datatype = nullptr, Op = nullptr;
};
Namers Registered[4];

std::string name(uint32_t Id, Namer Namers::*Which, const char *What) {
  unsigned A = Id >> ApiShift;
  uint32_t Value = Id & (Derived - 1);
  if (Id & Derived)
    return "derived " + std::string(What) + " of " + std::to_string(Value) + " bytes";
  if (Namer N = Registered[A].*Which)
    return N(Value);
  return std::string(What) + " " + std::to_string(Value);
}
} // namespace

void registerNamers(Api A, Namer Datatype, Namer Op) { Registered[unsigned(A)] = {Datatype, Op}; }

std::string datatypeName(uint32_t Id) { return name(Id, &Namers::Datatype, "datatype"); }
std::string opName(uint32_t Id) { return name(Id, &Namers::Op, "operator"); }

} // namespace lockstep::rt
