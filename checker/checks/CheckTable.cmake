# Reads checker/checks/checks.json, the one table of lockstep's checks, at
# configure time (a change re-runs CMake) and writes Checks.inc, an X-macro
# list of it for C++. Sets, for the including directory and below:
#   LOCKSTEP_CHECK_CLASSES  the class of each check, e.g. RankBranchCheck
#   LOCKSTEP_CHECK_NAMES    its name, e.g. lockstep-rank-branch
#   LOCKSTEP_CHECK_DOCS     its page, relative to the repository
#   LOCKSTEP_CHECK_INCLUDE  the directory that holds Checks.inc
set(table ${CMAKE_CURRENT_LIST_DIR}/checks.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${table})
file(READ ${table} json)
string(JSON count ERROR_VARIABLE error LENGTH "${json}" checks)
if(error)
  message(FATAL_ERROR "${table}: ${error}")
endif()

# Escaped for a C++ string literal.
function(lockstep_cxx_string out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()

set(keys name class doc severity summary description)
set(LOCKSTEP_CHECK_CLASSES "")
set(LOCKSTEP_CHECK_NAMES "")
set(LOCKSTEP_CHECK_DOCS "")
set(entries "")
set(headers "")
math(EXPR last "${count} - 1")
foreach(index RANGE ${last})
  string(JSON members LENGTH "${json}" checks ${index})
  math(EXPR last_member "${members} - 1")
  foreach(member RANGE ${last_member})
    string(JSON key MEMBER "${json}" checks ${index} ${member})
    if(NOT key IN_LIST keys)
      message(FATAL_ERROR "${table}: check ${index} has an unknown field '${key}'")
    endif()
  endforeach()
  foreach(key ${keys})
    string(JSON ${key} ERROR_VARIABLE error GET "${json}" checks ${index} ${key})
    if(error OR "${${key}}" STREQUAL "")
      message(FATAL_ERROR "${table}: check ${index} has no '${key}'")
    endif()
  endforeach()
  if(NOT name MATCHES "^lockstep-[a-z-]+$" OR NOT class MATCHES "^[A-Z][A-Za-z]*Check$"
     OR NOT severity MATCHES "^(warning|error|note)$")
    message(FATAL_ERROR "${table}: check '${name}': a name lockstep-*, a class *Check and a "
                        "severity warning, error or note")
  endif()
  if(name IN_LIST LOCKSTEP_CHECK_NAMES)
    message(FATAL_ERROR "${table}: '${name}' is listed twice")
  endif()
  list(APPEND LOCKSTEP_CHECK_CLASSES ${class})
  list(APPEND LOCKSTEP_CHECK_NAMES ${name})
  list(APPEND LOCKSTEP_CHECK_DOCS ${doc})
  string(APPEND headers "#include \"${class}.h\"\n")
  lockstep_cxx_string(description "${description}")
  string(APPEND entries
         "LOCKSTEP_CHECK(${class}, \"${name}\", \"${doc}\", \"${severity}\",\n"
         "               ${description})\n")
endforeach()

set(LOCKSTEP_CHECK_INCLUDE ${PROJECT_BINARY_DIR}/generated)
file(CONFIGURE OUTPUT ${LOCKSTEP_CHECK_INCLUDE}/Checks.inc CONTENT
     "// Generated from checker/checks/checks.json by CheckTable.cmake: do not edit.\n\
// LOCKSTEP_CHECK(Class, Name, DocPage, Severity, Description)\n${entries}" @ONLY)
file(CONFIGURE OUTPUT ${LOCKSTEP_CHECK_INCLUDE}/CheckHeaders.inc CONTENT
     "// Generated from checker/checks/checks.json by CheckTable.cmake: do not edit.\n${headers}"
     @ONLY)
