// Stable ids: what a finding is, not where it currently sits. Baselines and
// GitHub code scanning match findings across commits by this id, so it must
// not change when lines are inserted above a finding, when an unrelated
// function is renamed, or when the checkout lies in another directory.
#include "FindingsOutput.h"
#include "ProjectPaths.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>

namespace lockstep::cli {

namespace {

// Bump when the key changes: old baselines then stop matching instead of
// matching the wrong findings.
constexpr const char *IdVersion = "lockstep-id/v1";

std::uint64_t fnv1a(const std::string &Text) {
  std::uint64_t Hash = 0xcbf29ce484222325ull;
  for (unsigned char C : Text) {
    Hash ^= C;
    Hash *= 0x100000001b3ull;
  }
  return Hash;
}

std::string hex16(std::uint64_t Value) {
  static const char Digits[] = "0123456789abcdef";
  std::string Out(16, '0');
  for (int I = 15; I >= 0; --I, Value >>= 4)
    Out[I] = Digits[Value & 15];
  return Out;
}

// Characters that end a word of a message: quotes and brackets surround
// paths as often as spaces do.
bool endsWord(char C) {
  return std::isspace(static_cast<unsigned char>(C)) || C == '\'' || C == '"' || C == '`' ||
         C == '(' || C == ')' || C == ',' || C == ';' || C == '[' || C == ']' || C == '{' ||
         C == '}' || C == '<' || C == '>';
}

bool allDigits(const std::string &S, size_t Begin, size_t End) {
  if (Begin >= End)
    return false;
  for (size_t I = Begin; I < End; ++I)
    if (!std::isdigit(static_cast<unsigned char>(S[I])))
      return false;
  return true;
}

bool hasSourceExtension(const std::string &Word) {
  static const char *const Extensions[] = {"c",   "cc", "cpp", "cxx", "c++", "h",   "hh", "hpp",
                                           "hxx", "cu", "cuh", "inc", "ipp", "tcc", "m",  "mm"};
  size_t Dot = Word.rfind('.');
  size_t Slash = Word.find_last_of("/\\");
  if (Dot == std::string::npos || Dot == 0 || (Slash != std::string::npos && Dot < Slash))
    return false;
  std::string Ext = Word.substr(Dot + 1);
  std::transform(Ext.begin(), Ext.end(), Ext.begin(),
                 [](unsigned char C) { return std::tolower(C); });
  return std::find(std::begin(Extensions), std::end(Extensions), Ext) != std::end(Extensions);
}

bool hasLetter(const std::string &Word) {
  return std::any_of(Word.begin(), Word.end(),
                     [](unsigned char C) { return std::isalpha(C) != 0; });
}

// "src/a.c", "/usr/include/mpi.h", "../x/y", "train.c". Not "n/size": a
// division in a quoted condition is part of what the finding is about.
bool looksLikePath(const std::string &Word) {
  if (Word.empty() || !hasLetter(Word))
    return false;
  if (Word[0] == '/' || Word.rfind("./", 0) == 0 || Word.rfind("../", 0) == 0 ||
      Word.rfind("~/", 0) == 0)
    return Word.size() > 1;
  if (Word.size() > 2 && std::isalpha(static_cast<unsigned char>(Word[0])) && Word[1] == ':' &&
      (Word[2] == '\\' || Word[2] == '/'))
    return true; // C:\x
  return hasSourceExtension(Word);
}

// Strips a ":12" or ":12:5" location suffix; returns the length without it.
size_t withoutLocation(const std::string &Word) {
  size_t End = Word.size();
  for (int Part = 0; Part < 2; ++Part) {
    size_t Colon = Word.rfind(':', End - 1);
    if (Colon == std::string::npos || Colon == 0 || !allDigits(Word, Colon + 1, End))
      break;
    End = Colon;
  }
  return End;
}

bool isLocationNumber(const std::string &Word) {
  // "12", "12:5": bare positions, as in "at 12:5".
  size_t Colon = Word.find(':');
  if (Colon == std::string::npos)
    return allDigits(Word, 0, Word.size());
  return allDigits(Word, 0, Colon) && withoutLocation(Word) == Colon;
}

std::string lower(std::string S) {
  std::transform(S.begin(), S.end(), S.begin(), [](unsigned char C) { return std::tolower(C); });
  return S;
}

// The part of the key that does not depend on the position.
std::string idKey(const Finding &F, const std::string &ProjectRoot) {
  // '\x1f' (unit separator) does not occur in check names, paths or
  // diagnostics, so different parts do not concatenate to the same key.
  return std::string(IdVersion) + '\x1f' + F.check + '\x1f' +
         relativeToRoot(F.location.file, ProjectRoot).path + '\x1f' + F.function + '\x1f' +
         normalizeMessage(F.message);
}

std::string idOf(const std::string &Key, unsigned Occurrence) {
  return hex16(fnv1a(Key + '\x1f' + std::to_string(Occurrence)));
}

} // namespace

std::string normalizeMessage(const std::string &Message) {
  std::string Out;
  Out.reserve(Message.size());
  bool AfterPositionWord = false; // the last word was "line", "column", ...
  size_t I = 0;
  while (I < Message.size()) {
    if (endsWord(Message[I])) {
      Out += Message[I++];
      continue;
    }
    size_t End = I;
    while (End < Message.size() && !endsWord(Message[End]))
      ++End;
    std::string Word = Message.substr(I, End - I);
    I = End;
    // Sentence punctuation after a path or number is not part of it.
    std::string Tail;
    while (!Word.empty() && std::string(".,:;!?").find(Word.back()) != std::string::npos) {
      Tail.insert(Tail.begin(), Word.back());
      Word.pop_back();
    }
    std::string Lower = lower(Word);
    if (looksLikePath(Word.substr(0, withoutLocation(Word)))) {
      Out += "<file>";
      AfterPositionWord = false;
    } else if (isLocationNumber(Word) &&
               (AfterPositionWord || Word.find(':') != std::string::npos)) {
      Out += "<n>"; // stays after a position word: "lines 3 and 5"
    } else {
      Out += Word;
      AfterPositionWord =
          Lower == "line" || Lower == "lines" || Lower == "column" || Lower == "columns" ||
          Lower == "col" ||
          (AfterPositionWord && (Lower == "and" || Lower == "to" || Lower == "-" || Lower.empty()));
    }
    Out += Tail;
  }
  return Out;
}

std::string stableId(const Finding &F, const std::string &ProjectRoot, unsigned Occurrence) {
  return idOf(idKey(F, ProjectRoot), Occurrence);
}

void assignIds(std::vector<Finding> &Findings, const std::string &ProjectRoot) {
  std::map<std::string, std::vector<size_t>> Groups;
  for (size_t I = 0; I < Findings.size(); ++I)
    Groups[idKey(Findings[I], ProjectRoot)].push_back(I);
  for (auto &[Key, Members] : Groups) {
    auto Position = [&](size_t Index) {
      const Location &L = Findings[Index].location;
      return std::make_pair(L.line, L.column);
    };
    // Ties keep the input order (the indices ascend), deterministically.
    std::sort(Members.begin(), Members.end(), [&](size_t A, size_t B) {
      return std::make_pair(Position(A), A) < std::make_pair(Position(B), B);
    });
    unsigned Occurrence = 0;
    for (size_t M = 0; M < Members.size(); ++M) {
      if (M > 0 && Position(Members[M]) != Position(Members[M - 1]))
        ++Occurrence;
      Findings[Members[M]].id = idOf(Key, Occurrence);
    }
  }
}

} // namespace lockstep::cli
