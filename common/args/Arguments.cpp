#include "Arguments.h"

namespace lockstep::args {

Expected<bool> optionValue(const std::vector<std::string> &Args, size_t &I, const std::string &Name,
                           std::string &Value) {
  const std::string &Arg = Args[I];
  if (Arg.rfind(Name + "=", 0) == 0) {
    Value = Arg.substr(Name.size() + 1);
    return true;
  }
  if (Arg != Name)
    return false;
  if (I + 1 >= Args.size())
    return Error("option '" + Name + "' needs a value");
  Value = Args[++I];
  return true;
}

Expected<bool>
anyOptionValue(const std::vector<std::string> &Args, size_t &I,
               std::initializer_list<std::pair<const char *, std::string *>> Options) {
  for (const auto &[Name, Value] : Options) {
    Expected<bool> Matched = optionValue(Args, I, Name, *Value);
    if (!Matched || *Matched)
      return Matched;
  }
  return false;
}

Error unknownOption(const std::string &Arg) { return Error("unknown option '" + Arg + "'"); }

} // namespace lockstep::args
