// compile_commands.json: strict structure, lenient commands. See
// CompileDatabase.h.
#include "CompileDatabase.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// nlohmann's messages start with "[json.exception.parse_error.101] ": the
// reader wants the line and column that follow.
std::string withoutExceptionTag(const std::string &Message) {
  if (Message.rfind("[json.exception.", 0) == 0) {
    const std::string::size_type End = Message.find("] ");
    if (End != std::string::npos)
      return Message.substr(End + 2);
  }
  return Message;
}

std::string typeName(const json &Value) {
  const std::string Name = Value.type_name();
  return (Name == "array" || Name == "object") ? "an " + Name : "a " + Name;
}

// Checks one entry's structure and returns its command as argv. The file is
// named in errors once known.
Error readEntry(const json &Entry, const std::string &Where, std::string &Directory,
                std::string &File, std::vector<std::string> &Command) {
  if (!Entry.is_object())
    return Error(Where + ": expected an object, found " + typeName(Entry));
  // A string member; errors start with \p Prefix.
  auto StringField = [&](const std::string &Prefix, const char *Key, std::string &Value,
                         bool Required) {
    const auto It = Entry.find(Key);
    if (It == Entry.end())
      return Required ? Error(Prefix + ": missing \"" + Key + "\"") : Error::success();
    if (!It->is_string() || (Required && It->get_ref<const std::string &>().empty()))
      return Error(Prefix + ": \"" + Key + "\" must be a non-empty string, found " +
                   (It->is_string() ? "an empty string" : typeName(*It)));
    Value = It->get<std::string>();
    return Error::success();
  };
  if (Error E = StringField(Where, "file", File, true))
    return E;
  const std::string Named = Where + " (\"" + File + "\")"; // later errors name the file
  std::string Output;
  if (Error E = StringField(Named, "directory", Directory, true))
    return E;
  if (Error E = StringField(Named, "output", Output, false))
    return E;

  const auto Arguments = Entry.find("arguments");
  const auto CommandIt = Entry.find("command");
  if (CommandIt != Entry.end() && !CommandIt->is_string())
    return Error(Named + ": \"command\" must be a string, found " + typeName(*CommandIt));
  if (Arguments != Entry.end()) {
    // "arguments" wins over "command" when both are present (the format's
    // rule): it needs no shell splitting.
    if (!Arguments->is_array() || Arguments->empty())
      return Error(Named + ": \"arguments\" must be a non-empty array of strings, found " +
                   (Arguments->is_array() ? "an empty array" : typeName(*Arguments)));
    for (std::size_t I = 0; I < Arguments->size(); ++I) {
      const json &Arg = (*Arguments)[I];
      if (!Arg.is_string())
        return Error(Named + ": \"arguments\"[" + std::to_string(I) + "] must be a string, found " +
                     typeName(Arg));
      Command.push_back(Arg.get<std::string>());
    }
    return Error::success();
  }
  if (CommandIt == Entry.end())
    return Error(Named + ": needs \"arguments\" (an array) or \"command\" (a string)");
  Expected<std::vector<std::string>> Words = splitCommandLine(CommandIt->get<std::string>());
  if (!Words)
    return Error(Named + ": \"command\": " + Words.takeError().message());
  if (Words->empty())
    return Error(Named + ": \"command\" is empty");
  Command = std::move(*Words);
  return Error::success();
}

} // namespace

Error parseCompileDatabase(const std::string &Text, const std::string &DatabasePath,
                           std::vector<CompileUnit> &Out, LoadReport *Report,
                           const TranslationOptions &Options) {
  json Doc;
  try {
    Doc = json::parse(Text);
  } catch (const json::exception &E) {
    return Error(DatabasePath + ": not valid JSON: " + withoutExceptionTag(E.what()));
  }
  if (!Doc.is_array())
    return Error(DatabasePath + ": expected an array of compile commands, found " + typeName(Doc));

  std::error_code EC;
  fs::path DatabaseDir = fs::absolute(fs::path(DatabasePath), EC).parent_path();
  LoadReport Local;
  Local.DatabasePath = DatabasePath;
  Local.Entries = Doc.size();
  std::vector<CompileUnit> Units;
  std::set<std::string> Files;
  std::set<std::string> Warnings;

  for (std::size_t I = 0; I < Doc.size(); ++I) {
    const std::string Where = DatabasePath + ": entry " + std::to_string(I);
    std::string Directory, File;
    std::vector<std::string> Command;
    if (Error E = readEntry(Doc[I], Where, Directory, File, Command))
      return E;

    // The format wants an absolute directory; a relative one can only mean
    // relative to the database.
    fs::path Dir(Directory);
    if (Dir.is_relative())
      Dir = DatabaseDir / Dir;
    Dir = Dir.lexically_normal();
    if (!Dir.has_filename() && Dir != Dir.root_path())
      Dir = Dir.parent_path(); // "/build/" normalises with a trailing slash
    fs::path Path(File);
    if (Path.is_relative())
      Path = Dir / Path;
    const std::string Absolute = Path.lexically_normal().string();

    if (!Files.insert(Absolute).second) {
      ++Local.Duplicates;
      continue;
    }
    TranslatedCommand Translated;
    if (Error Reason = translateCommand(Command, Dir.string(), Absolute, Options, Translated)) {
      Local.Skipped.push_back({I, Absolute, Reason.message()});
      continue;
    }
    for (const std::string &Warning : Translated.Warnings)
      if (Warnings.insert(Warning).second)
        Local.Warnings.push_back(Warning);
    Units.push_back({Absolute, Dir.string(), std::move(Translated.Arguments), Translated.Language});
  }
  if (Doc.empty())
    Local.Warnings.push_back(DatabasePath + " lists no compile commands");

  Out = std::move(Units);
  if (Report)
    *Report = std::move(Local);
  return Error::success();
}

std::string translateNvccEntries(const std::string &Text, const std::string &ClangDriver,
                                 const TranslationOptions &Options,
                                 std::vector<std::string> &Warnings) {
  json Doc = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (!Doc.is_array())
    return Text;
  bool Changed = false;
  for (std::size_t I = 0; I < Doc.size(); ++I) {
    std::string Directory, File;
    std::vector<std::string> Command;
    if (readEntry(Doc[I], "entry " + std::to_string(I), Directory, File, Command))
      return Text;
    TranslatedCommand Translated;
    if (Error E = translateCommand(Command, Directory, File, Options, Translated)) {
      Warnings.push_back(File + ": " + E.message());
      continue;
    }
    if (!Translated.Nvcc)
      continue;
    json Arguments = json::array({ClangDriver});
    for (const std::string &Argument : Translated.Arguments)
      Arguments.push_back(Argument);
    Arguments.push_back(File);
    Doc[I].erase("command");
    Doc[I]["arguments"] = std::move(Arguments);
    Changed = true;
  }
  return Changed ? Doc.dump() : Text;
}

Error loadCompileDatabase(const std::string &BuildDir, std::vector<CompileUnit> &Out,
                          LoadReport *Report, const TranslationOptions &Options) {
  const fs::path Given(BuildDir.empty() ? "." : BuildDir);
  std::error_code EC;
  const fs::file_status Status = fs::status(Given, EC);
  if (!fs::exists(Status))
    return Error("build directory '" + Given.string() + "' does not exist");
  fs::path Path = Given;
  if (fs::is_directory(Status)) {
    Path /= "compile_commands.json";
    if (!fs::exists(Path, EC))
      return Error("no compile_commands.json in '" + Given.string() +
                   "': configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON (CMake), or "
                   "record the build with Bear");
  }
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Text;
  if (In)
    Text << In.rdbuf();
  if (!In || In.bad())
    return Error("cannot read '" + Path.string() + "': " + std::strerror(errno));
  return parseCompileDatabase(Text.str(), Path.string(), Out, Report, Options);
}

} // namespace lockstep::cli
