#include "Arguments.h"

namespace lockstep::args {

bool optionValue(const std::vector<std::string> &Args, size_t &I,
                 const std::string &Name, std::string &Value,
                 std::string &Error) {
  const std::string &Arg = Args[I];
  if (Arg.rfind(Name + "=", 0) == 0) {
    Value = Arg.substr(Name.size() + 1);
    return true;
  }
  if (Arg != Name)
    return false;
  if (I + 1 >= Args.size()) {
    Error = "option '" + Name + "' needs a value";
    return true;
  }
  Value = Args[++I];
  return true;
}

std::string unknownOption(const std::string &Arg) {
  return "unknown option '" + Arg + "'";
}

} // namespace lockstep::args
